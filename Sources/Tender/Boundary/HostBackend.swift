// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// The ``PaymentBackend`` port on the host's can_send and send callbacks.
struct HostBackend: PaymentBackend {
    let callbacks: HostCallbacks

    func canSend(_ payment: JSONValue) throws(TenderError) -> ResponseCode { try callbacks.canSend(payment) }
    func send(_ payment: JSONValue) throws(TenderError) -> ResponseCode { try callbacks.send(payment) }
}
