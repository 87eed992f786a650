import TenderCore

/// What a `tender_session *` points to: one dialog, keeping its engine alive.
final class SessionHandle {
    let owner: EngineHandle
    let session: SendPaymentSession

    init(owner: EngineHandle, session: SendPaymentSession) {
        self.owner = owner
        self.session = session
    }

    /// A +1 reference for C.
    func retainedPointer() -> OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    /// The handle behind a C pointer, without changing its count.
    static func from(_ pointer: OpaquePointer?) throws(TenderError) -> SessionHandle {
        let pointer = try Boundary.require(pointer, "session")
        return Unmanaged<SessionHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// Drops the reference C held.
    static func release(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        Unmanaged<SessionHandle>.fromOpaque(UnsafeRawPointer(pointer)).release()
    }
}
