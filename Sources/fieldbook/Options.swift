import App
import ArgumentParser

extension Option {
    /// The option for one of App's settings: its flag, and help that names its environment variable.
    init<Parsed: ExpressibleByArgument>(_ setting: Setting<Parsed>) where Value == Parsed? {
        self.init(name: .customLong(setting.name), help: ArgumentHelp(setting.help))
    }
}

/// Options every command shares: where the data and resources are, and how much to log.
struct CommonOptions: ParsableArguments {
    @Option(.data) var data: String?
    @Option(.resources) var resources: String?
    @Option(.logLevel) var logLevel: String?

    var given: [GivenSetting] { [GivenSetting(.data, data), GivenSetting(.resources, resources), GivenSetting(.logLevel, logLevel)] }

    /// Runs one task on the database of the data folder these options name, and prints the line the task returns.
    func onDataFolder(_ use: DataFolderUse, _ task: (DataFolder) throws -> String) throws {
        try DataFolder.open(AppConfiguration(given), use) { announce(try task($0)) }
    }
}
