import HTTPServer
import Foundation
import Testing

@Suite struct RouterTests {
    var router: Router {
        var router = Router()
        router.get("/things") { _ in .text("list") }
        router.get("/things/new") { _ in .text("new") }
        router.get("/things/{id}") { request in .text("thing \(request.pathParameter("id") ?? "")") }
        router.post("/things/{id}/edit") { _ in .text("edited") }
        return router
    }

    @Test func literalSegmentsWinWhenListedFirst() throws {
        #expect(try router.handle(Request(method: .get, path: "/things/new")).bodyText == "new")
        #expect(try router.handle(Request(method: .get, path: "/things/42")).bodyText == "thing 42")
        #expect(try router.handle(Request(method: .get, path: "/things/")).bodyText == "list")
    }

    @Test func aLiteralSegmentsRouteOwnsItsPathForEveryMethod() throws {
        var router = Router()
        router.get("/lists/{id}/stops/{stop}") { _ in .text("stop") }
        router.delete("/lists/{id}/stops/{stop}") { _ in .text("removed") }
        router.post("/lists/{id}/stops/from-filter") { _ in .text("added") }
        #expect(try router.handle(Request(method: .post, path: "/lists/1/stops/from-filter")).bodyText == "added")
        do {
            _ = try router.handle(Request(method: .get, path: "/lists/1/stops/from-filter"))
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            #expect(error.allowedMethods == [.post], "not the stop route's GET and DELETE")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unknownPathsAre404AndOtherMethods405() {
        #expect(throws: HTTPError.notFound("/nothing")) { try router.handle(Request(method: .get, path: "/nothing")) }
        do {
            _ = try router.handle(Request(method: .get, path: "/things/1/edit"))
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            #expect(error.allowedMethods == [.post])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func staticFilesAreFingerprintedAndCachedForAYear() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("css"), withIntermediateDirectories: true)
        try Data("body{}".utf8).write(to: directory.appendingPathComponent("css/app.css"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try StaticFiles(mounts: [("", directory.path)])
        let url = files.url(for: "css/app.css")
        #expect(url.hasPrefix("/static/") && url.hasSuffix("/css/app.css") && url != "/static/css/app.css")
        let cached = try #require(files.response(for: Request(method: .get, path: url)))
        #expect(cached.header("Cache-Control")?.contains("immutable") == true)
        #expect(cached.header("Content-Type") == "text/css; charset=utf-8")
        let plain = try #require(files.response(for: Request(method: .get, path: "/static/css/app.css")))
        #expect(plain.header("Cache-Control") == "no-cache")
        #expect(files.response(for: Request(method: .get, path: "/static/../Package.swift")) == nil)
    }

    @Test func largeStaticFilesAreSentFromDiskAndNotKeptAYearOnceReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("big.js")
        try Data(repeating: UInt8(ascii: "x"), count: 100_000).write(to: script)
        let files = try StaticFiles(mounts: [("leaflet/", directory.path)])
        let url = files.url(for: "leaflet/big.js")
        let sent = try #require(files.response(for: Request(method: .get, path: url)))
        #expect(sent.file?.size == 100_000 && sent.body.isEmpty)
        #expect(sent.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(sent.header("Cache-Control")?.contains("immutable") == true)

        // Replaced by a file of the same size (written to another name and renamed over it, as a package upgrade does).
        let upgrade = directory.appendingPathComponent("big.js.new")
        try Data(repeating: UInt8(ascii: "y"), count: 100_000).write(to: upgrade)
        #expect(rename(upgrade.path, script.path) == 0)
        let replaced = try #require(files.response(for: Request(method: .get, path: url)))
        #expect(replaced.file?.size == 100_000)
        #expect(replaced.header("Cache-Control") == "no-cache")
        try FileManager.default.removeItem(at: script)
        #expect(files.response(for: Request(method: .get, path: url)) == nil)
    }
}
