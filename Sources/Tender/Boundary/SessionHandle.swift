// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// What a `tender_session *` points to: one dialog, keeping its engine alive.
final class SessionHandle: CHandle {
    let owner: EngineHandle
    let session: DialogSession

    init(owner: EngineHandle, session: DialogSession) {
        self.owner = owner
        self.session = session
    }

    static let argumentName = "session"
}
