// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TenderCore

/// The classifier's features carry their kind in the hash's top bit: the model normalises words (and pairs) and
/// letter n-grams apart, and tells them apart by that bit alone.
@Suite struct FeaturizerTests {
    @Test func wordsPairsAndLettersAreToldApartByTheTopBit() {
        // "pay rent": two words, one pair; "pay" has 3 letter n-grams of "<pay>" of lengths 3 to 5 (3 + 2 + 1),
        // "rent" is a bill kind ("zbilltype", a placeholder: no letters).
        let hashes = Featurizer.features("pay rent")
        let words = hashes.filter { !Featurizer.isLetters($0) }
        let letters = hashes.filter(Featurizer.isLetters)
        #expect(words == [
            Featurizer.wordHash(Array("pay".utf8)[...]), Featurizer.wordHash(Array("zbilltype".utf8)[...]),
            Featurizer.pairHash(Array("pay".utf8)[...], Array("zbilltype".utf8)[...]),
        ])
        #expect(letters.count == 6)
        #expect(Set(letters).count == 6 && Set(letters).isDisjoint(with: words))
        // A word's hash is the same whichever way it is asked for (the custom-intent matcher's features, the
        // model's `knows`).
        #expect(CustomIntentMatcher.features("pay rent") == words)
    }
}
