// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// What a `tender_session *` points to: one dialog (in process, or in the broker), keeping its engine alive.
final class SessionHandle: CHandle {
    let owner: EngineHandle
    let session: any PaymentDialog

    init(owner: EngineHandle, session: any PaymentDialog) {
        self.owner = owner
        self.session = session
    }

    static let argumentName = "session"
    /// The process that opened it (``CHandle/process``).
    let process = getpid()
}
