import Testing
@testable import SkiffServer

@Suite("Transfer references")
struct TransferReferenceTests {
    @Test("SKF- and eight characters of Crockford's base 32, every one of the 32 in use, none of I, L, O, U")
    func format() {
        let alphabet = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var seen: Set<Character> = []
        for _ in 0..<2_000 {
            let reference = TransferReference.make()
            #expect(reference.hasPrefix("SKF-") && reference.count == 12, "\(reference)")
            let characters = reference.dropFirst(4)
            #expect(characters.allSatisfy(alphabet.contains), "\(reference)")
            seen.formUnion(characters)
        }
        // 16,000 characters: a character missing from all of them would mean the bits are not all used.
        #expect(seen == alphabet)
    }
}
