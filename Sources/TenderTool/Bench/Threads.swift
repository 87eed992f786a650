// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body(index)` on `count` POSIX threads at once and waits for all of them.
enum Threads {
    private final class Work {
        let body: (Int) -> Void
        let index: Int
        init(_ body: @escaping (Int) -> Void, _ index: Int) {
            self.body = body
            self.index = index
        }
    }

    static func run(_ count: Int, _ body: @escaping (Int) -> Void) {
        var threads: [pthread_t] = []
        for index in 0..<count {
            var thread = pthread_t()
            let work = Unmanaged.passRetained(Work(body, index)).toOpaque()
            let created = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
                work.body(work.index)
                return nil
            }, work)
            if created == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Work>.fromOpaque(work).release()
                body(index)
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}
