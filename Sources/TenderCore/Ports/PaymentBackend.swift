// SPDX-License-Identifier: Apache-2.0
/// The host's own payment service, when it moves the money itself (SiriKit's
/// canSend / send in the seeds): Tender still resolves, confirms,
/// authenticates and keeps the signed record, but balances are the host's.
///
/// `payment` is the resolved intent with its "idempotencyKey": a backend that
/// sees a key again must not pay again (a crash between send and the record
/// makes Tender send again). Implementations must be thread-safe.
public protocol PaymentBackend: Sendable {
    /// Whether the backend can make `payment`: ready, or a failure code.
    func canSend(_ payment: JSONValue) throws(TenderError) -> ResponseCode
    /// Makes `payment`: success, or a failure code (nothing recorded then).
    func send(_ payment: JSONValue) throws(TenderError) -> ResponseCode
}
