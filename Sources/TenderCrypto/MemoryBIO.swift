// SPDX-License-Identifier: Apache-2.0
internal import COpenSSL
import TenderCore

/// An OpenSSL memory BIO (BIO_s_mem), freed when released.
final class MemoryBIO {
    let bio: OpaquePointer

    /// An empty BIO to write into.
    init() throws(TenderError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLError.failure("BIO_new") }
        self.bio = bio
    }

    /// A read-only BIO over a copy of `bytes`.
    init(reading bytes: [UInt8]) throws(TenderError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        copy.copyBytes(from: bytes)
        guard let bio = BIO_new(BIO_s_mem()), BIO_write(bio, copy.baseAddress, Int32(bytes.count)) == Int32(bytes.count) else {
            copy.initializeMemory(as: UInt8.self, repeating: 0)
            copy.deallocate()
            throw OpenSSLError.failure("BIO_write")
        }
        copy.initializeMemory(as: UInt8.self, repeating: 0)
        copy.deallocate()
        self.bio = bio
    }

    deinit { BIO_free(bio) }

    /// Everything written so far (BIO_read of BIO_ctrl_pending bytes).
    func contents() throws(TenderError) -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(bio))
        var out = [UInt8](repeating: 0, count: pending)
        let read = out.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pending)) }
        guard read == Int32(pending) else { throw OpenSSLError.failure("BIO_read") }
        return out
    }
}
