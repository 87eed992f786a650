// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// Random and mutated inputs through every parser the C API exposes: each
/// must answer or throw a TenderError, never trap (a trap would end the test run).
@Suite struct MalformedInputFuzzTests {
    static let seeds = [
        #"{"intent":"send_payment","payee":{"name":"John","handle":"mobile"},"currencyAmount":{"amount":"50.25","currency":"USD"},"note":"Dinner","idempotencyKey":"k-1","device":"d"}"#,
        #"{"parameter":"currencyAmount","value":{"amount":"20","currency":"JPY"}}"#,
        #"{"contacts":[{"id":"a","displayName":"A","handles":[{"id":"h","label":"home","type":"phone","value":"1"}]}],"accounts":[{"id":"c","type":"checking","balance":{"amount":"1.000","currency":"BHD"},"default":true}]}"#,
        #"{"home":"/tmp/x","limits":{"USD":{"minimum":"1","maximum":"2"}},"authentication":{"reuseSeconds":5,"aboveAmount":{"EUR":"3"}}}"#,
        "\"\\ud83d\\ude00 \\u0000 \\n\"",
    ]

    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private func mutate(_ bytes: [UInt8], _ rng: inout SplitMix) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let interesting: [UInt8] = Array("{}[]\":,\\-.0123456789eEnulltruefalse\u{1}".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !out.isEmpty: out[Int.random(in: 0..<out.count, using: &rng)] = interesting.randomElement(using: &rng) ?? 0
            case 1 where !out.isEmpty: out.remove(at: Int.random(in: 0..<out.count, using: &rng))
            case 2: out.insert(interesting.randomElement(using: &rng) ?? 0, at: Int.random(in: 0...out.count, using: &rng))
            default:
                if !out.isEmpty {
                    let start = Int.random(in: 0..<out.count, using: &rng)
                    out.insert(contentsOf: out[start..<min(out.count, start + 8)], at: Int.random(in: 0...out.count, using: &rng))
                }
            }
        }
        return out
    }

    private func exercise(_ bytes: [UInt8]) {
        guard let json = try? JSONInput.parse(bytes) else { return }
        _ = try? Alternatives(json: json)
        _ = try? Shortcut(json: json)
        _ = JSONWriter.string(json)
        _ = try? Intent(json: json)
        _ = try? Answer(json: json)
        _ = try? DirectoryDocument(json: json)
        _ = try? EngineConfiguration(json: json)
        _ = try? PaymentLimits(json: json)
        _ = try? AuthenticationPolicy(json: json)
        _ = try? DirectoryRemoval(json: json)
        _ = try? UserVocabulary(json: json)
        _ = try? AppVocabulary(json: json)
        _ = try? DialogOptions(json: json)
        if case let .string(text) = json {
            _ = Base64URL.decode(text)
            _ = try? CompactJWS(parsing: text)
            if let usd = try? Currency(code: "USD") { _ = try? Money(decimal: text, currency: usd) }
        }
    }

    @Test func mutatedInputsNeverTrap() {
        var rng = SplitMix(state: 20261122)
        for round in 0..<30_000 {
            let seed = Array(Self.seeds[round % Self.seeds.count].utf8)
            exercise(mutate(seed, &rng))
        }
    }

    @Test func randomBytesNeverTrap() {
        var rng = SplitMix(state: 7)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            exercise(bytes)
            exercise(Array("\"".utf8) + bytes.filter { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } + Array("\"".utf8))
        }
    }

    static let utterances = [
        "send $1,250.50 to John Baily for dinner with Tender", "paga mi factura de la luz mañana, 10,99 dólares",
        "twelve dollars and 5 cents to tim on the 15th", "transfer one hundred and fifty bucks from checking to savings next friday",
        "what bills are due this month", "¥1.5 €2,50 £3 a million million 1,2,3,4",
    ]

    @Test func mutatedUtterancesNeverTrap() {
        var rng = SplitMix(state: 15)
        let context = ParseContext(today: Fixtures.today)
        for round in 0..<6_000 {
            let text = String(decoding: mutate(Array(Self.utterances[round % Self.utterances.count].utf8), &rng).prefix(1000), as: UTF8.self)
            _ = try? TextParser.parse(text, context: context)
            _ = try? SpokenValue.value(text, kind: .currencyAmount, today: Fixtures.today)
            _ = try? SpokenValue.value(text, kind: .dateRange, today: Fixtures.today)
        }
    }

    @Test func roundTripsThroughTheWriter() throws {
        for seed in Self.seeds {
            let value = try JSONParser.parse(seed)
            #expect(try JSONParser.parse(JSONWriter.string(value)) == value)
        }
    }
}
