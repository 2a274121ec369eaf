import Foundation
import Translations

/// A person who can sign in. The password hash never leaves Storage.
public struct User: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var email: String
    public var name: String
    public var role: UserRole
    public var isDisabled: Bool
    /// The language pages are shown in (a BCP 47 tag such as `es`); nil: the browser's.
    public var language: String?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> User {
        User(id: id, email: "", name: "", role: .readOnly, isDisabled: false, language: nil, version: version, createdAt: .unreadable, updatedAt: .unreadable)
    }
}

/// A new account as submitted by /setup, /users/new or `fieldbook create-user`.
public struct NewUserInput: Sendable, Equatable {
    public var name: String
    public var email: String
    public var role: String
    public var password: String
    public var passwordConfirmation: String

    public init(name: String, email: String, role: String, password: String, passwordConfirmation: String) {
        self.name = name
        self.email = email
        self.role = role
        self.password = password
        self.passwordConfirmation = passwordConfirmation
    }

    /// A checked new user: trimmed name, lower-cased email, known role, acceptable password.
    public struct Valid: Sendable {
        public let name: String
        public let email: String
        public let role: UserRole
        public let password: String
    }

    public func validated() throws -> Valid {
        var errors = ValidationError()
        let name = AccountRules.checkName(name, into: &errors)
        let email = AccountRules.checkEmail(email, into: &errors)
        let role = AccountRules.checkRole(role, into: &errors)
        AccountRules.checkNewPassword(password, confirmation: passwordConfirmation, into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, email: email, role: role!, password: password)
    }
}

extension NewUserInput.Valid {
    /// The enabled account this input makes, at its first version.
    public func user(id: UUID = UUID(), at moment: Date) -> User {
        User(id: id, email: email, name: name, role: role, isDisabled: false, language: nil, version: 1, createdAt: moment, updatedAt: moment)
    }
}

/// Changes an administrator makes to an existing account.
public struct UserChangeInput: Sendable, Equatable {
    public var name: String
    public var role: String
    public var isDisabled: Bool

    public init(name: String, role: String, isDisabled: Bool) {
        self.name = name
        self.role = role
        self.isDisabled = isDisabled
    }

    public func validated() throws -> (name: String, role: UserRole, isDisabled: Bool) {
        var errors = ValidationError()
        let name = AccountRules.checkName(name, into: &errors)
        let role = AccountRules.checkRole(role, into: &errors)
        try errors.throwIfAny()
        return (name, role!, isDisabled)
    }
}

/// The rules accounts share, so every surface words them the same way.
public enum AccountRules {
    public static let minPasswordLength = 12
    public static let maxPasswordLength = 200

    public static let name = TextRule(label: Message("Name"), maxLength: 100, missing: Message("Enter the person's name"))
    public static let email = TextRule(label: Message("Email"), maxLength: EmailAddress.maxLength, missing: Message("Enter an email address"),
                                       invalidEmail: Message("Enter an email address in the correct format, like name@example.org"))
    public static let role = ChoiceRule(UserRole.self, required: true, message: Message("Choose a role"))
    /// Kept exactly as typed; lengths count Unicode code points (as NIST SP 800-63B asks, and as every `TextRule` does).
    public static let password = TextRule(label: Message("Password"), maxLength: maxPasswordLength, minLength: minPasswordLength, trims: false)

    /// The fields of a new account; a change takes name and role (and whether it is disabled, which has no rule).
    public static let newUserRules: [String: FieldRule] = [
        "name": .text(name), "email": .text(email), "role": .choice(role), "password": .text(password),
    ]

    static func checkName(_ raw: String, into errors: inout ValidationError) -> String {
        name.check(raw, field: "name", into: &errors)
    }

    static func checkEmail(_ raw: String, into errors: inout ValidationError) -> String {
        email.check(raw, field: "email", into: &errors).lowercased()
    }

    static func checkRole(_ raw: String, into errors: inout ValidationError) -> UserRole? {
        role.check(raw, as: UserRole.self, field: "role", into: &errors)
    }

    public static func checkNewPassword(_ password: String, confirmation: String, into errors: inout ValidationError) {
        let earlier = errors.fieldErrors.count
        Self.password.check(password, field: "password", into: &errors)
        if errors.fieldErrors.count == earlier && password != confirmation {
            errors.add("password_confirmation", Message("The two passwords do not match; type the same password twice"))
        }
    }
}

/// Email address syntax as organizers type it (not the full RFC 5322 grammar). Lengths count code points, as `TextRule` does.
public enum EmailAddress {
    /// The longest address SMTP carries (RFC 5321: a 256-octet path less its angle brackets).
    public static let maxLength = 254

    public static func isValid(_ text: String) -> Bool {
        guard text.unicodeScalars.count <= maxLength, !text.contains(where: { $0.isWhitespace }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].unicodeScalars.count <= 64 else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard domain.count >= 2 else { return false }
        return domain.allSatisfy { label in
            !label.isEmpty && label.unicodeScalars.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
