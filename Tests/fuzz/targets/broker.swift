// SPDX-License-Identifier: Apache-2.0
// Fuzz target "broker": any bytes as one broker frame (what tenderd reads from a client and a
// client from tenderd). The header's length is checked before the body; what decodes must
// encode and decode again to the same message, and an error must cross the wire unchanged.
import TenderCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBroker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let message = try? BrokerFrame.decode(bytes) else { return 0 }
    precondition(bytes.count - BrokerFrame.headerBytes <= BrokerFrame.maxBodyBytes, "an oversized frame decoded")
    let again: BrokerMessage
    do { again = try BrokerFrame.decode(BrokerFrame.encode(message)) } catch {
        fatalError("an encoded message does not decode: \(error)")
    }
    precondition(again == message, "encode and decode changed the message")
    if message.op == .error {
        // Once read, an error crosses the wire unchanged (the first read may shorten or wrap what it was sent).
        let read = TenderError(brokerBody: .object(TenderError(brokerBody: message.body).brokerBody))
        precondition(TenderError(brokerBody: .object(read.brokerBody)) == read, "an error changed crossing the wire again")
    }
    return 0
}
