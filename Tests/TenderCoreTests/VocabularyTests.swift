// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct VocabularyTests {
    let items = [
        VocabularyItem(id: "savings", phrase: "NestEgg", pronunciation: nil, alternatives: ["rainy day fund"]),
        VocabularyItem(id: "siobhan", phrase: "Siobhan Kelly", pronunciation: "shiv awn kelly", alternatives: []),
        VocabularyItem(id: "jb", phrase: "John Baily", pronunciation: nil, alternatives: []),
        VocabularyItem(id: "jb2", phrase: "Jon Bailey Senior", pronunciation: nil, alternatives: []),
    ]

    let appJSON = """
        {"parameterVocabularies": [
           {"parameter": "billType", "items": [
              {"id": "electricity", "synonyms": [{"phrase": "power", "pronunciation": "pow er"}, {"phrase": "hydro"}],
               "examples": ["pay my power bill"]},
              {"id": "water"}]}],
         "examples": ["pay my bill with Tender"]}
        """

    private func message(_ body: () throws(TenderError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            guard case let .invalidArgument(text) = error else { return "unexpected \(error)" }
            return text
        }
    }

    // MARK: Parsing

    @Test func parsesAUserVocabulary() throws {
        let json = try JSONParser.parse("""
            {"kind": "accountNickname", "items": [
              {"id": "savings", "phrase": "NestEgg", "pronunciation": "nest egg", "alternatives": ["rainy day fund"]},
              {"id": "bills", "phrase": "Safe-to-Spend"}]}
            """)
        let vocabulary = try UserVocabulary(json: json)
        #expect(vocabulary.kind == .accountNickname)
        #expect(vocabulary.items == [
            VocabularyItem(id: "savings", phrase: "NestEgg", pronunciation: "nest egg", alternatives: ["rainy day fund"]),
            VocabularyItem(id: "bills", phrase: "Safe-to-Spend", pronunciation: nil, alternatives: []),
        ])
    }

    @Test func refusesUnknownMembers() throws {
        let top = try JSONParser.parse(#"{"kind": "contactName", "items": [], "extra": 1}"#)
        #expect(message { () throws(TenderError) in _ = try UserVocabulary(json: top) }?.contains("\"extra\"") == true)
        let item = try JSONParser.parse(#"{"kind": "contactName", "items": [{"id": "a", "phrase": "A", "nick": "x"}]}"#)
        #expect(message { () throws(TenderError) in _ = try UserVocabulary(json: item) } == "items[0] has an unknown member \"nick\"")
    }

    @Test func requiresAKnownKind() throws {
        let missing = try JSONParser.parse(#"{"items": []}"#)
        #expect(message { () throws(TenderError) in _ = try UserVocabulary(json: missing) } == "vocabulary.kind is required")
        let bad = try JSONParser.parse(#"{"kind": "petName", "items": []}"#)
        #expect(message { () throws(TenderError) in _ = try UserVocabulary(json: bad) }
            == "vocabulary.kind must be one of contactName, paymentOrganizationName, accountNickname")
        let noItems = try JSONParser.parse(#"{"kind": "contactName"}"#)
        #expect(message { () throws(TenderError) in _ = try UserVocabulary(json: noItems) } == "vocabulary.items is required")
    }

    @Test func theEarlierItemOfAnIdWins() throws {
        let json = try JSONParser.parse("""
            {"kind": "contactName", "items": [
              {"id": "a", "phrase": "First"}, {"id": "b", "phrase": "Other"}, {"id": "a", "phrase": "Second"}]}
            """)
        #expect(try UserVocabulary(json: json).items.map(\.phrase) == ["First", "Other"])
        let built = UserVocabulary(kind: .contactName, items: [
            VocabularyItem(id: "x", phrase: "One", pronunciation: nil, alternatives: []),
            VocabularyItem(id: "x", phrase: "Two", pronunciation: nil, alternatives: []),
        ])
        #expect(built.items.map(\.phrase) == ["One"])
    }

    @Test func enforcesItemLimits() throws {
        func item(_ body: String) throws -> String? {
            let json = try JSONParser.parse(#"{"kind": "contactName", "items": ["# + body + "]}")
            return message { () throws(TenderError) in _ = try UserVocabulary(json: json) }
        }
        let long201 = String(repeating: "a", count: 201)
        #expect(try item(#"{"id": "a", "phrase": "\#(long201)"}"#) == "items[0].phrase is longer than 200 characters")
        #expect(try item(#"{"id": "a", "phrase": "\#(String(repeating: "a", count: 200))"}"#) == nil)
        #expect(try item(#"{"id": "\#(String(repeating: "i", count: 129))", "phrase": "A"}"#)
            == "items[0].id is longer than 128 characters")
        #expect(try item(#"{"id": "", "phrase": "A"}"#) == "items[0].id must not be empty")
        #expect(try item(#"{"phrase": "A"}"#) == "items[0].id is required")
        #expect(try item(#"{"id": "a", "phrase": "?!-"}"#) == "items[0].phrase must contain a letter or digit")
        #expect(try item(#"{"id": "a", "phrase": "A", "pronunciation": "\#(long201)"}"#)
            == "items[0].pronunciation is longer than 200 characters")
        #expect(try item(#"{"id": "a", "phrase": "A", "alternatives": ["\#(long201)"]}"#)
            == "items[0].alternatives[0] is longer than 200 characters")
        #expect(try item(#"{"id": "a", "phrase": "A", "alternatives": [7]}"#) == "items[0].alternatives[0] must be a string")
        let alternatives = { (n: Int) in (0..<n).map { "\"alt \($0)\"" }.joined(separator: ",") }
        #expect(try item(#"{"id": "a", "phrase": "A", "alternatives": [\#(alternatives(33))]}"#)
            == "items[0].alternatives has more than 32 entries")
        #expect(try item(#"{"id": "a", "phrase": "A", "alternatives": [\#(alternatives(32))]}"#) == nil)

        let many = { (n: Int) in (0..<n).map { #"{"id": "\#($0)", "phrase": "P"}"# }.joined(separator: ",") }
        #expect(try item(many(1001)) == "vocabulary.items has more than 1000 items")
        #expect(try item(many(1000)) == nil)
    }

    @Test func userVocabularyRoundTrips() throws {
        let vocabulary = UserVocabulary(kind: .paymentOrganizationName, items: [
            VocabularyItem(id: "a", phrase: "Hydro One", pronunciation: "hi dro won", alternatives: ["the hydro"]),
            VocabularyItem(id: "b", phrase: "Rogers", pronunciation: nil, alternatives: []),
        ])
        let text = JSONWriter.string(vocabulary.json)
        #expect(text == #"{"kind":"paymentOrganizationName","items":[{"id":"a","phrase":"Hydro One","pronunciation":"hi dro won","alternatives":["the hydro"]},{"id":"b","phrase":"Rogers"}]}"#)
        #expect(try UserVocabulary(json: JSONParser.parse(text)) == vocabulary)
    }

    @Test func parsesAndRoundTripsTheAppVocabulary() throws {
        let app = try AppVocabulary(json: JSONParser.parse(appJSON))
        #expect(app.examples == ["pay my bill with Tender"])
        let bills = try #require(app.vocabulary(for: "billType"))
        #expect(bills.items.map(\.id) == ["electricity", "water"])
        #expect(bills.items[0].synonyms == [
            .init(phrase: "power", pronunciation: "pow er"), .init(phrase: "hydro", pronunciation: nil),
        ])
        #expect(bills.items[0].examples == ["pay my power bill"])
        #expect(app.vocabulary(for: "payee") == nil)
        #expect(try AppVocabulary(json: JSONParser.parse(JSONWriter.string(app.json))) == app)
        #expect(try AppVocabulary(json: JSONParser.parse("{}")) == .empty)
    }

    @Test func refusesADuplicateParameterAndUnknownMembers() throws {
        let twice = try JSONParser.parse("""
            {"parameterVocabularies": [{"parameter": "billType", "items": []}, {"parameter": "billType", "items": []}]}
            """)
        #expect(message { () throws(TenderError) in _ = try AppVocabulary(json: twice) }
            == "parameterVocabularies[1].parameter is used twice")
        let unknown = try JSONParser.parse("""
            {"parameterVocabularies": [{"parameter": "p", "items": [{"id": "x", "synonyms": [{"phrase": "y", "tone": 1}]}]}]}
            """)
        #expect(message { () throws(TenderError) in _ = try AppVocabulary(json: unknown) }
            == "parameterVocabularies[0].items[0].synonyms[0] has an unknown member \"tone\"")
        let top = try JSONParser.parse(#"{"parameters": []}"#)
        #expect(message { () throws(TenderError) in _ = try AppVocabulary(json: top) }
            == "appVocabulary has an unknown member \"parameters\"")
    }

    // MARK: Keys

    @Test(arguments: [
        ("Robert", "R163"), ("Rupert", "R163"), ("Tymczak", "T522"), ("Pfister", "P236"), ("Jon", "J500"),
        ("John", "J500"), ("Bailey", "B400"), ("Baily", "B400"), ("Ashcraft", "A261"), ("ashcraft", "A261"), ("", ""), ("123", ""),
    ])
    func soundex(word: String, code: String) {
        #expect(PhraseKey.soundex(word) == code)
    }

    @Test func compactKeepsLowerCasedLettersAndDigits() {
        #expect(PhraseKey.compact("Nest Egg") == "nestegg")
        #expect(PhraseKey.compact("NestEgg") == "nestegg")
        #expect(PhraseKey.compact("Safe-to-Spend") == "safetospend")
        #expect(PhraseKey.compact("Ünder 25!") == "ünder25")
        #expect(PhraseKey.phonetic("Jon  Bailey") == ["J500", "B400"])
        #expect(PhraseKey.words("Jon, Bailey 2") == ["jon", "bailey", "2"])
    }

    @Test func editDistanceCountsCharacters() {
        #expect(PhraseKey.editDistance("kitten", "sitting") == 3)
        #expect(PhraseKey.editDistance("", "abc") == 3)
        #expect(PhraseKey.editDistance("abc", "") == 3)
        #expect(PhraseKey.editDistance("café", "cafe") == 1)
        #expect(PhraseKey.editDistance("same", "same") == 0)
    }

    // MARK: Matching

    @Test func theCompactPhraseMatchesExactly() {
        #expect(VocabularyMatcher.matches("nest egg", in: items) == [VocabularyMatch(id: "savings", phrase: "NestEgg", exact: true)])
    }

    @Test func alternativesAndPronunciationsMatchExactly() {
        #expect(VocabularyMatcher.matches("Rainy-Day Fund", in: items) == [VocabularyMatch(id: "savings", phrase: "NestEgg", exact: true)])
        #expect(VocabularyMatcher.matches("shiv awn kelly", in: items)
            == [VocabularyMatch(id: "siobhan", phrase: "Siobhan Kelly", exact: true)])
    }

    @Test func aNameThatSoundsAlikeMatchesInexactly() {
        #expect(VocabularyMatcher.matches("Jon Bailey", in: items) == [VocabularyMatch(id: "jb", phrase: "John Baily", exact: false)])
        #expect(VocabularyMatcher.matches("nestegs", in: items) == [VocabularyMatch(id: "savings", phrase: "NestEgg", exact: false)])
    }

    @Test func oneEditAwayMatchesOnlyLongPhrases() {
        let pets = [
            VocabularyItem(id: "long", phrase: "Nest Egg", pronunciation: nil, alternatives: []),
            VocabularyItem(id: "short", phrase: "Cat", pronunciation: nil, alternatives: []),
        ]
        #expect(VocabularyMatcher.matches("Best Egg", in: pets) == [VocabularyMatch(id: "long", phrase: "Nest Egg", exact: false)])
        #expect(VocabularyMatcher.matches("bat", in: pets).isEmpty)
        #expect(VocabularyMatcher.matches("Bust Egg", in: pets).isEmpty)
        let boat = [VocabularyItem(id: "k", phrase: "Kayak", pronunciation: nil, alternatives: [])]
        #expect(VocabularyMatcher.matches("kayaks", in: boat).map(\.id) == ["k"])
        #expect(VocabularyMatcher.matches("kaya", in: boat).isEmpty)
        let name = [VocabularyItem(id: "k", phrase: "Kaya", pronunciation: nil, alternatives: [])]
        #expect(VocabularyMatcher.matches("kayak", in: name).isEmpty)
    }

    @Test func theEarlierItemComesFirst() {
        let twins = [
            VocabularyItem(id: "second", phrase: "Jon Baily", pronunciation: nil, alternatives: []),
            VocabularyItem(id: "first", phrase: "John Bailey", pronunciation: nil, alternatives: []),
        ]
        #expect(VocabularyMatcher.matches("Jahn Bely", in: twins).map(\.id) == ["second", "first"])
        #expect(VocabularyMatcher.matches("Jahn Bely", in: twins.reversed()).map(\.id) == ["first", "second"])
    }

    @Test func anExactMatchHidesSoundAlikes() {
        #expect(VocabularyMatcher.matches("john baily", in: items).map(\.id) == ["jb"])
    }

    @Test func nothingMatchesAStranger() {
        #expect(VocabularyMatcher.matches("Craig Federighi", in: items).isEmpty)
        #expect(VocabularyMatcher.matches("", in: items).isEmpty)
        #expect(VocabularyMatcher.matches("?!", in: items).isEmpty)
        #expect(VocabularyMatcher.matches("123", in: [
            VocabularyItem(id: "n", phrase: "456", pronunciation: nil, alternatives: []),
        ]).isEmpty)
    }

    @Test func appSynonymsMatchTheItemID() throws {
        let bills = try #require(try AppVocabulary(json: JSONParser.parse(appJSON)).vocabulary(for: "billType"))
        #expect(VocabularyMatcher.matches("power", in: bills) == [VocabularyMatch(id: "electricity", phrase: "electricity", exact: true)])
        #expect(VocabularyMatcher.matches("Pow-er", in: bills).map(\.id) == ["electricity"])
        #expect(VocabularyMatcher.matches("water", in: bills).map(\.id) == ["water"])
        #expect(VocabularyMatcher.matches("hidro", in: bills) == [VocabularyMatch(id: "electricity", phrase: "electricity", exact: false)])
        #expect(VocabularyMatcher.matches("gas", in: bills).isEmpty)
    }
}
