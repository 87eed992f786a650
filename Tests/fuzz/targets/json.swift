// SPDX-License-Identifier: Apache-2.0
// Fuzz target "json": any bytes through TenderCore's JSON parser (JSONInput.parse, what every
// host input goes through). What parses must write and parse again to the same value, and
// writing that again must give the same bytes.
import TenderCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONInput.parse(bytes) else { return 0 }
    let written = JSONWriter.bytes(value)
    let again: JSONValue
    do { again = try JSONParser.parse(written) } catch {
        fatalError("written JSON does not parse: \(error) in \(String(decoding: written, as: UTF8.self))")
    }
    precondition(again == value, "parse, write, parse changed the value")
    precondition(JSONWriter.bytes(again) == written, "writing the same value twice gave different bytes")
    return 0
}
