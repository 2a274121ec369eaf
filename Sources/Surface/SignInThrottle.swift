import HTTPServer

/// The one count of failed sign-ins for the whole node: the sign-in page and POST /api/v1/auth/login record into the same
/// throttle, so five failures are five whichever way they were sent. The app creates it once and hands it to both.
///
/// Counted per account and address together, so one person's five wrong tries on a shared laptop do not block the
/// others signing in there. Two wider counts stay as safety limits: an account tried from many addresses
/// (20 failures), and an address trying many accounts (50).
public final class SignInThrottle: Sendable {
    private let attempts = LoginThrottle()

    public init() {}

    /// Seconds the caller must still wait before trying this email from this address again, or 0.
    public func waitTime(email: String, address: String) -> Int {
        attempts.waitTime(for: Self.keys(email: email, address: address))
    }

    public func recordFailure(email: String, address: String) {
        attempts.recordFailure(for: Self.keys(email: email, address: address))
    }

    /// Clears the account's counts; the address's stays, so one good password does not reset a guesser's tally.
    public func recordSuccess(email: String, address: String) {
        attempts.recordSuccess(for: Self.keys(email: email, address: address).prefix(2).map(\.name))
    }

    public static let accountLimit = 20
    public static let addressLimit = 50

    /// Emails ignore case.
    private static func keys(email: String, address: String) -> [LoginThrottle.Key] {
        let account = email.lowercased()
        return [LoginThrottle.Key("pair:\(account) from \(address)"), LoginThrottle.Key("email:" + account, freeAttempts: accountLimit),
                LoginThrottle.Key("address:" + address, freeAttempts: addressLimit)]
    }
}

/// Too many failed sign-ins for this account or address: 429, with the seconds to wait.
public struct TooManySignIns: HTTPResponseError, PubliclyDescribed {
    public let seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    public var status: HTTPStatus { .tooManyRequests }
    public var publicMessage: String { "Too many failed sign-in attempts. Wait \(seconds) seconds, then try again." }
    public var publicError: PublicError {
        PublicError(status: status, code: "too_many_attempts", message: publicMessage, retryAfter: seconds)
    }
}
