// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

@Suite struct NameMatcherTests {
    let contacts = [
        Contact(id: "ja", displayName: "John Appleseed", handles: []),
        Contact(id: "jb", displayName: "John Baily", handles: []),
        Contact(id: "tc", displayName: "Tim Cook", handles: []),
    ]

    @Test func aFirstNameMatchesEveryoneWhoHasIt() {
        #expect(NameMatcher.matches("John", in: contacts).map(\.id) == ["ja", "jb"])
        #expect(NameMatcher.matches("john", in: contacts).map(\.id) == ["ja", "jb"])
    }

    @Test func theWholeNameWins() {
        #expect(NameMatcher.matches("John Baily", in: contacts).map(\.id) == ["jb"])
        #expect(NameMatcher.matches("  baily,  JOHN ", in: contacts).map(\.id) == ["jb"])
    }

    @Test func prefixesOfThreeLettersOrMore() {
        #expect(NameMatcher.matches("Bai", in: contacts).map(\.id) == ["jb"])
        #expect(NameMatcher.matches("Jo", in: contacts).isEmpty)
    }

    @Test func nothingMatchesAStranger() {
        #expect(NameMatcher.matches("Craig", in: contacts).isEmpty)
        #expect(NameMatcher.matches("", in: contacts).isEmpty)
        #expect(NameMatcher.matches("!!", in: contacts).isEmpty)
    }
}
