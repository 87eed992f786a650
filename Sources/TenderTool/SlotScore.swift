// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Per-slot precision, recall and F1 of the labeller over JSONL lines with
/// slot spans (the ../shared/data/sgd shape). Values are compared as their
/// lower-cased tokens. The dataset's slot names are mapped to the labeller's:
/// amount and transfer_amount → amount; recipient_name,
/// recipient_account_name and receiver (the person paid or asked in SGD's
/// payment service) → person; its account types, which carry no span,
/// are the checking/savings values of `account_type` and
/// `recipient_account_type` that changed in the turn and that the turn says
/// (not a default confirmed with "yes"), scored against the account words the
/// labeller marked (any role) as `account_type`. Out-of-scope lines are not
/// scored: the dataset marks no slots of other services. A kind of value
/// the file never annotates (SGD has no dates or notes) is counted apart and
/// left out of ``total``: nothing in the file can say whether such a value is
/// right.
struct SlotScore {
    struct Counts {
        var truePositives = 0, predicted = 0, gold = 0
        var precision: Double { predicted == 0 ? 0 : Double(truePositives) / Double(predicted) }
        var recall: Double { gold == 0 ? 0 : Double(truePositives) / Double(gold) }
        var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    }

    /// A line whose values differ from the file's: what it annotates and was not found, and what was found and is
    /// not annotated, each as (kind, lower-cased value).
    struct Miss {
        let text: String
        let missing: [(String, String)]
        let extra: [(String, String)]
    }

    private(set) var counts: [String: Counts] = [:]
    private(set) var misses: [Miss] = []
    private var states: [String: JSONValue] = [:]

    static let datasetSlots = [
        "amount": "amount", "transfer_amount": "amount", "recipient_name": "person", "recipient_account_name": "person",
        "receiver": "person",
    ]
    static let accountWords = ["checking": "checking", "savings": "savings", "saving": "savings"]

    /// Whether `text` says the account type `value` (a value confirmed with "yes" is not said).
    static func says(_ text: String, _ value: String) -> Bool {
        TextToken.tokenize(text).contains { accountWords[$0.text] == value }
    }

    static func normalised(_ text: String) -> String { TextToken.tokenize(text).map(\.text).joined(separator: " ") }

    /// Scores one line: `line` is the JSON object, `found` the labeller's values of its text.
    mutating func add(_ line: JSONValue, found: [(slot: String, text: String)]) {
        guard case let .array(slots)? = line["slots"] else { return }
        var gold: [(String, String)] = []
        for slot in slots {
            guard let name = slot["slot"]?.stringValue, let value = slot["value"]?.stringValue else { continue }
            gold.append((Self.datasetSlots[name] ?? name, Self.normalised(value)))
        }
        var predicted = found.map { ($0.slot, Self.normalised($0.text)) }
        if let dialogue = line["dialogue"]?.stringValue, let values = line["values"] {
            let before = states[dialogue]
            states[dialogue] = values
            for key in ["account_type", "recipient_account_type"] {
                guard case let .array(now)? = values[key], let value = now.last?.stringValue, before?[key] != values[key],
                    Self.says(line["text"]?.stringValue ?? "", value)
                else { continue }
                if !gold.contains(where: { $0 == ("account_type", value) }) { gold.append(("account_type", value)) }
            }
            for value in found where ["account", "from_account", "to_account"].contains(value.slot) {
                if let type = Self.normalised(value.text).split(separator: " ").compactMap({ Self.accountWords[String($0)] }).first,
                    !predicted.contains(where: { $0 == ("account_type", type) })
                {
                    predicted.append(("account_type", type))
                }
            }
            predicted.removeAll { ["account", "from_account", "to_account"].contains($0.0) }
        }
        // Each found value matches at most one annotated value of its kind; what is left over on either side is a miss.
        var missing = gold
        var extra: [(String, String)] = []
        for value in predicted {
            if let at = missing.firstIndex(where: { $0 == value }) { missing.remove(at: at) } else { extra.append(value) }
        }
        if !missing.isEmpty || !extra.isEmpty { misses.append(Miss(text: line["text"]?.stringValue ?? "", missing: missing, extra: extra)) }
        for kind in Set(gold.map(\.0) + predicted.map(\.0)) {
            let annotated = gold.filter { $0.0 == kind }.count
            var row = counts[kind, default: Counts()]
            row.gold += annotated
            row.predicted += predicted.filter { $0.0 == kind }.count
            row.truePositives += annotated - missing.filter { $0.0 == kind }.count
            counts[kind] = row
        }
    }

    /// The kinds of value the file annotates at least once: the ones ``total`` scores.
    var annotated: [String] { counts.filter { $0.value.gold > 0 }.keys.sorted() }

    /// The annotated kinds together (micro average).
    var total: Counts {
        counts.filter { $0.value.gold > 0 }.values.reduce(into: Counts()) { sum, row in
            sum.truePositives += row.truePositives
            sum.predicted += row.predicted
            sum.gold += row.gold
        }
    }
}
