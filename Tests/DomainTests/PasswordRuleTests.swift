import Domain
import Testing

/// ASVS 2.1.1–2.1.3 as SECURITY.md promises them: at least 12 and up to 200 characters, kept whole, any character.
@Suite struct PasswordRuleTests {
    func accepted(_ password: String) -> String? {
        try? NewUserInput(name: "Ada", email: "ada@example.org", role: "editor", password: password,
                          passwordConfirmation: password).validated().password
    }

    @Test func twelveToTwoHundredCharactersAreAcceptedAndKeptWhole() {
        #expect(accepted(String(repeating: "p", count: 11)) == nil)
        #expect(accepted(String(repeating: "p", count: 12)) != nil)
        #expect(accepted(String(repeating: "p", count: 200)) != nil)
        #expect(accepted(String(repeating: "p", count: 201)) == nil)
        let spaced = "  correct horse battery staple  "
        #expect(accepted(spaced) == spaced, "white space around a password is part of it")
        let anyCharacter = "пароль 密码 🔑 \u{00A0}tab\there"
        #expect(accepted(anyCharacter) == anyCharacter)
    }
}
