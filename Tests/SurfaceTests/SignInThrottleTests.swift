import HTTPServer
import Surface
import Testing

/// The wider safety limits behind the per-person count (issue 16).
@Suite struct SignInThrottleTests {
    @Test func anAddressTryingManyAccountsIsStoppedAtTheSafetyLimit() {
        let throttle = SignInThrottle()
        for index in 0..<SignInThrottle.addressLimit {
            #expect(throttle.waitTime(email: "person\(index)@example.org", address: "10.0.0.9") == 0)
            throttle.recordFailure(email: "person\(index)@example.org", address: "10.0.0.9")
        }
        #expect(throttle.waitTime(email: "someone.new@example.org", address: "10.0.0.9") > 0)
        #expect(throttle.waitTime(email: "someone.new@example.org", address: "10.0.0.10") == 0)
    }

    @Test func anAccountTriedFromManyAddressesIsStoppedAtTheSafetyLimit() {
        let throttle = SignInThrottle()
        for index in 0..<SignInThrottle.accountLimit {
            throttle.recordFailure(email: "Ed@Example.org", address: "10.0.1.\(index)")
        }
        #expect(throttle.waitTime(email: "ed@example.org", address: "10.0.2.1") > 0)
        #expect(throttle.waitTime(email: "ann@example.org", address: "10.0.2.1") == 0)
    }

    @Test func aSuccessClearsThePersonsCountButNotTheAddresss() {
        let throttle = SignInThrottle()
        for index in 0..<(SignInThrottle.addressLimit - 1) { throttle.recordFailure(email: "p\(index)@example.org", address: "10.0.0.7") }
        throttle.recordSuccess(email: "p0@example.org", address: "10.0.0.7")
        throttle.recordFailure(email: "another@example.org", address: "10.0.0.7")
        #expect(throttle.waitTime(email: "p0@example.org", address: "10.0.0.7") > 0)
    }
}
