import App
import ArgumentParser

/// `fieldbook demo-data`: fills an empty database with a realistic community, to try Fieldbook and to benchmark it.
struct DemoData: FieldbookCommand {
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

    func perform() async throws {
        try common.onDataFolder(.existingDatabaseOrNewFolder) { try $0.importDemoCommunity(venues: venues, participants: participants, activities: activities, seed: seed) }
    }
}
