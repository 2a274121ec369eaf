import App
import ArgumentParser
import Domain
import Foundation
import Storage

/// `fieldbook demo-data`: fills an empty database with a realistic community, to try Fieldbook and to benchmark it.
struct DemoData: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-data",
        abstract: "Fill an empty database with a realistic demo community (areas, venues, participants, activities, assignments).")

    @OptionGroup var common: CommonOptions

    @Option(help: "Participants to create.")
    var participants = 2_000

    @Option(help: "Activities to create, spread over the last three years.")
    var activities = 400

    @Option(help: "Venues to create, clustered in five cities.")
    var venues = 150

    @Option(help: "Seed: the same seed gives the same community.")
    var seed: UInt64 = 1

    func validate() throws {
        guard participants >= 0, activities >= 0, venues >= 0 else { throw ValidationError("sizes must not be negative") }
    }

    func run() async throws {
        var configuration = AppConfiguration()
        common.apply(to: &configuration, environment: Environment())
        let database = try openDatabase(configuration)
        let started = Date()
        do {
            let summary = try database.importDemoCommunity(
                size: DemoCommunity.Size(venues: venues, participants: participants, activities: activities), seed: seed)
            announce("""
                Created \(summary.areas) areas, \(summary.venues) venues, \(summary.participants) participants \
                (\(summary.addressPeriods) address periods), \(summary.activities) activities (\(summary.venuePeriods) venue periods) \
                and \(summary.assignments) assignments in \(String(format: "%.1f", Date().timeIntervalSince(started))) s.
                """)
        } catch let error as DomainError {
            throw ValidationError(error.userMessage)
        }
        try database.close()
    }
}
