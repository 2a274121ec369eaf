import Foundation
import Testing
import TestSupport

/// The live status stream of the real executable: who may open it, what it sends, and that shutdown ends it.
@Suite(.serialized) struct StatusEventsEndToEndTests {
    let password = "correct horse battery staple"

    @Test func signedInStreamFollowsWritesAndShutdownEndsIt() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        // A node linked to a hub that is then stopped: writes queue, and the pending count is what changes live. A linked
        // node offers no /setup (its accounts come from the hub): its administrator is made before it is linked.
        let hubData = data.appendingPathComponent("hub")
        let hub = try FieldbookProcess(dataDirectory: hubData)
        try FieldbookProcess.command(["create-user", "--data", hubData.path, "--email", "hub@example.org", "--role", "administrator"],
                                     input: password + "\n")
        try FieldbookProcess.command(["create-user", "--data", data.appendingPathComponent("node").path, "--email", "admin@example.org",
                                      "--role", "administrator"], input: password + "\n")
        let linked = try FieldbookProcess.command(["link", "--data", data.appendingPathComponent("node").path, "--upstream",
                                                   "http://127.0.0.1:\(hub.port)", "--email", "hub@example.org"], input: password + "\n")
        #expect(linked.status == 0, "\(linked.output)")
        hub.terminate()
        let server = try FieldbookProcess(dataDirectory: data.appendingPathComponent("node"))
        defer { server.terminate() }
        let admin = BrowserSession(port: server.port)
        #expect(server.setupCode == nil)
        #expect(try admin.post("/login", [("email", "admin@example.org"), ("password", password)]).status == 303)

        let signedOut = try StreamingClient(port: server.port, path: "/events")
        #expect(signedOut.wait { $0.head != nil })
        #expect(signedOut.status == 303)
        #expect(signedOut.header("Location") == "/login?next=%2Fevents")

        let cookie = admin.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let events = try StreamingClient(port: server.port, path: "/events", headers: "Cookie: \(cookie)\r\n")
        // The status event's fields are read by name: where "hub" falls in the sorted JSON is no part of what is tested.
        #expect(events.wait { statusEvents(in: $0.body).first?["hub"] as? String == "offline" })
        #expect(events.header("Content-Type") == "text/event-stream")
        #expect(events.header("Cache-Control") == "no-store")
        let first = try #require(pendingCounts(in: events.body).last)

        // A write in another session reaches this open stream without a reload.
        let other = BrowserSession(port: server.port)
        #expect(try other.post("/login", [("email", "admin@example.org"), ("password", password)]).status == 303)
        #expect(try other.post("/activity-types/new", [("name", "Night Market")]).status == 303)
        #expect(events.wait { pendingCounts(in: $0.body).last == first + 1 })

        let stopping = Date()
        #expect(server.terminate() == 0)
        #expect(Date().timeIntervalSince(stopping) < 5) // the drain allows 10 s; an open stream must not use them
        #expect(events.waitForEnd(timeout: 1))
    }

    /// The pending_operations values of the status events in `body`, in order.
    func pendingCounts(in body: String) -> [Int] {
        statusEvents(in: body).compactMap { $0["pending_operations"] as? Int }
    }

    /// The data of each complete status event in `body`, parsed, in order (one still arriving is left out).
    func statusEvents(in body: String) -> [[String: Any]] {
        body.components(separatedBy: "event: status\ndata: ").dropFirst().compactMap { event in
            guard let end = event.firstIndex(of: "\n") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(event[..<end].utf8))) as? [String: Any]
        }
    }
}
