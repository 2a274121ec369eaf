import BenchmarkTiming
import Foundation
import FoundationNetworking

/// A node's requests to its hub through Fieldbook's libcurl wrapper (Sources/Sync/CurlTransfer.swift) against
/// URLSession (FoundationNetworking), as the node used it before: a push-sized POST and a page-sized GET to a server
/// on 127.0.0.1, one after another on a kept connection.
let server = try LoopbackServer(answerBytes: 400_000)
let url = "http://127.0.0.1:\(server.port)/api/v1/sync/push"
let push = Data(repeating: UInt8(ascii: "y"), count: 600_000)
let session = URLSession(configuration: .ephemeral)

func requestWithCurl(_ body: Data?) throws -> Int {
    let answer = try CurlTransfer.perform(body == nil ? "GET" : "POST", url, headers: ["Accept: application/json", "Content-Type: application/json"],
                                          body: body, idleTimeout: 30)
    return answer.body.count
}

/// What the node's hub client did before: a data task waited for on the calling thread.
func requestWithURLSession(_ body: Data?) throws -> Int {
    var request = URLRequest(url: URL(string: url)!, timeoutInterval: 30)
    request.httpMethod = body == nil ? "GET" : "POST"
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = body
    final class Outcome: @unchecked Sendable { var count = -1 }
    let outcome = Outcome(), done = DispatchSemaphore(value: 0)
    session.dataTask(with: request) { data, _, _ in
        outcome.count = data?.count ?? -1
        done.signal()
    }.resume()
    done.wait()
    return outcome.count
}

requireSame(try requestWithCurl(push), try requestWithURLSession(push), "a POST's answer")
try SideBySide("POST 600 KB, answer 400 KB (a push)", repetitions: 100).run(
    .init("Fieldbook's CurlTransfer") { _ = try requestWithCurl(push) },
    .init("URLSession") { _ = try requestWithURLSession(push) })
try SideBySide("GET, answer 400 KB (a change page)", repetitions: 100).run(
    .init("Fieldbook's CurlTransfer") { _ = try requestWithCurl(nil) },
    .init("URLSession") { _ = try requestWithURLSession(nil) })
