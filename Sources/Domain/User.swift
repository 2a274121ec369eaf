import Foundation

/// A person who can sign in. The password hash never leaves Storage.
public struct User: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var email: String
    public var name: String
    public var role: UserRole
    public var isDisabled: Bool
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, email: String, name: String, role: UserRole, isDisabled: Bool, version: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.isDisabled = isDisabled
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
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

    static func checkName(_ raw: String, into errors: inout ValidationError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors.add("name", "Enter the person's name") }
        else if name.count > 100 { errors.add("name", "Name must be 100 characters or fewer") }
        return name
    }

    static func checkEmail(_ raw: String, into errors: inout ValidationError) -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if email.isEmpty { errors.add("email", "Enter an email address") }
        else if !EmailAddress.isValid(email) { errors.add("email", "Enter an email address in the correct format, like name@example.org") }
        return email
    }

    static func checkRole(_ raw: String, into errors: inout ValidationError) -> UserRole? {
        guard let role = UserRole(rawValue: raw) else {
            errors.add("role", "Choose a role")
            return nil
        }
        return role
    }

    /// Lengths count Unicode code points (as NIST SP 800-63B asks), so an accent typed as a combining mark counts.
    public static func checkNewPassword(_ password: String, confirmation: String, into errors: inout ValidationError) {
        let length = password.unicodeScalars.count
        if length < minPasswordLength {
            errors.add("password", "Password must be at least \(minPasswordLength) characters")
        } else if length > maxPasswordLength {
            errors.add("password", "Password must be \(maxPasswordLength) characters or fewer")
        } else if password != confirmation {
            errors.add("password_confirmation", "The two passwords do not match; type the same password twice")
        }
    }
}

/// Email address syntax as organizers type it (not the full RFC 5322 grammar).
public enum EmailAddress {
    public static func isValid(_ text: String) -> Bool {
        guard text.count <= 254, !text.contains(where: { $0.isWhitespace }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard domain.count >= 2 else { return false }
        return domain.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
