import BenchmarkTiming
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A PostgreSQL hub's connections: Fieldbook's pool over libpq (Sources/PostgresHub/PostgresPool.swift and
/// LibPQ.swift), on the calling thread as a hub's request workers use it, against PostgresNIO 1.33.2's PostgresClient,
/// its pooled client: 8 workers each reading 200 rows one query at a time through 4 connections.
/// `benchmark-postgres postgresql://fieldbook@127.0.0.1:PORT/fieldbook` (scripts/postgres-cluster.sh makes one).
guard let address = CommandLine.arguments.dropFirst().first, let parts = URLComponents(string: address),
      let host = parts.host, let port = parts.port, let user = parts.user else {
    print("usage: benchmark-postgres postgresql://USER@HOST:PORT/DATABASE")
    exit(64)
}
let workers = 8, queriesEach = 200, connections = 4
let query = "SELECT id, name, email FROM bench_people WHERE id = $1"

let pool = PostgresPool(url: address, size: connections)
try pool.withConnection { connection in
    try connection.executeScript("""
        DROP TABLE IF EXISTS bench_people;
        CREATE TABLE bench_people (id bigint PRIMARY KEY, name text NOT NULL, email text NOT NULL);
        INSERT INTO bench_people SELECT n, 'Person ' || n, 'person' || n || '@example.org' FROM generate_series(1, 10000) n;
        """)
}

func readWithFieldbook() throws -> Int {
    let total = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var found = 0
        for number in 0..<queriesEach {
            found += (try? pool.withConnection { try $0.execute(query, [String(1 + (worker * queriesEach + number) % 10_000)]) }.count) ?? 0
        }
        total.withLock { $0 += found }
    }
    return total.withLock { $0 }
}

var configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: parts.password,
                                                 database: String(parts.path.dropFirst()), tls: .disable)
configuration.options.maximumConnections = connections
let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "benchmark"))
let running = Task { await client.run() }
// Leases asked for before run() has started fail: wait until one query goes through.
while (try? await client.query("SELECT 1")) == nil { try await Task.sleep(for: .milliseconds(50)) }

func readWithPostgresNIO() throws -> Int {
    final class Outcome: @unchecked Sendable { var found = 0 }
    let outcome = Outcome(), done = DispatchSemaphore(value: 0)
    Task {
        outcome.found = (try? await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var found = 0
                    for number in 0..<queriesEach {
                        let id = 1 + (worker * queriesEach + number) % 10_000
                        guard let rows = try? await client.query("SELECT id, name, email FROM bench_people WHERE id = \(id)") else { continue }
                        for try await _ in rows.decode((Int64, String, String).self) { found += 1 }
                    }
                    return found
                }
            }
            return try await group.reduce(0, +)
        }) ?? -1
        done.signal()
    }
    done.wait()
    return outcome.found
}

requireSame(try readWithFieldbook(), try readWithPostgresNIO(), "rows read")
print("\(workers) workers × \(queriesEach) queries through \(connections) connections; a row each")
try SideBySide("\(workers * queriesEach) one-row queries", rounds: 7, repetitions: 3).run(
    .init("Fieldbook's PostgresPool+libpq") { _ = try readWithFieldbook() },
    .init("PostgresNIO 1.33.2") { _ = try readWithPostgresNIO() })
running.cancel()
