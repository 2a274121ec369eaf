import Foundation
import Testing
@testable import WebUI

/// The `tel:` link beside a participant's number: digits and a leading plus, the bracketed trunk zero dropped.
@Suite struct TelephoneURITests {
    @Test func numbersAsTypedBecomeDiallableAddresses() {
        #expect(ParticipantPages.telephoneURI("+44 (0)20 7946-0018") == "tel:+442079460018")
        #expect(ParticipantPages.telephoneURI("  +254 712 345 678") == "tel:+254712345678")
        #expect(ParticipantPages.telephoneURI("020 (0)7946 0018") == "tel:02007946 0018".filter { $0 != " " })
        #expect(ParticipantPages.telephoneURI("(0)1234") == "tel:01234")
        #expect(ParticipantPages.telephoneURI("+1 (0) 555") == "tel:+1555")
        #expect(ParticipantPages.telephoneURI("٠١٢ ext. 5") == "tel:5")
        #expect(ParticipantPages.telephoneURI("") == "tel:")
    }

    /// The byte loop gives what the earlier Character filters gave, for any mix of digits, brackets, pluses and
    /// other characters.
    @Test func theByteLoopAgreesWithFilteringCharacters() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["+", "(", "0", ")", "(0)", " ", "\u{00A0}", "1", "9", "-", "٣", "é", "x", "\t"]
        for _ in 0..<5_000 {
            let phone = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(ParticipantPages.telephoneURI(phone) == Self.reference(phone), "\(phone.debugDescription)")
        }
    }

    private static func reference(_ phone: String) -> String {
        let international = phone.trimmingCharacters(in: .whitespaces).hasPrefix("+")
        let withoutTrunkZero = international ? phone.replacingOccurrences(of: "(0)", with: "") : phone
        return "tel:" + (international ? "+" : "") + withoutTrunkZero.filter(\.isASCII).filter(\.isNumber)
    }
}
