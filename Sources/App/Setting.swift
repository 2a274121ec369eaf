import Foundation

/// One row of README's Configuration table: a value given as the flag `--name` or as the environment variable
/// `variable`. The flag wins; a variable set to "" counts as unset. Settings.swift declares every one of them.
public struct Setting<Value: LosslessStringConvertible & Sendable>: Sendable {
    /// The flag without its dashes, as in `--sync-interval`.
    public let name: String
    public let variable: String
    /// The flag's help, naming the variable and the default.
    public let help: String
    /// Used when neither flag nor variable is given; nil keeps AppConfiguration's own default.
    let fallback: Value?
    /// The refusal when the variable's text is not a Value (a flag's text is checked by the argument parser).
    let unreadable: @Sendable (_ variable: String, _ text: String) -> String
    /// Puts the value into the configuration being built; throws InvalidInput for a value it cannot use.
    let apply: @Sendable (Value, inout ConfigurationDraft) throws -> Void

    init(name: String, variable: String, about: String, defaultNote: String? = nil, fallback: Value? = nil,
         unreadable: @escaping @Sendable (String, String) -> String = { "\($0) must be a number, got '\($1)'" },
         apply: @escaping @Sendable (Value, inout ConfigurationDraft) throws -> Void) {
        self.name = name
        self.variable = variable
        self.help = "\(about) (env \(variable)\(defaultNote.map { "; \($0)" } ?? ""))."
        self.fallback = fallback
        self.unreadable = unreadable
        self.apply = apply
    }

    /// The flag's value if it was given, else the variable's, else the fallback.
    func value(flag: Value?, environment: [String: String]) throws -> Value? {
        if let flag { return flag }
        guard let text = environment[variable], !text.isEmpty else { return fallback }
        guard let value = Value(text) else { throw InvalidInput(unreadable(variable, text)) }
        return value
    }
}

/// A setting as one command received it: the setting and its flag's value, nil when the flag was not given.
public struct GivenSetting: Sendable {
    let resolve: @Sendable (_ environment: [String: String], inout ConfigurationDraft) throws -> Void

    public init<Value>(_ setting: Setting<Value>, _ flag: Value?) {
        resolve = { environment, draft in
            guard let value = try setting.value(flag: flag, environment: environment) else { return }
            try setting.apply(value, &draft)
        }
    }
}

extension AppConfiguration {
    /// The configuration a command's settings describe, read in the order given (the first refusal is the one
    /// reported). Only the settings a command declares are read, so a one-shot command is not refused for a
    /// server variable it does not use.
    public init(_ given: [GivenSetting], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        var draft = ConfigurationDraft(environment: environment)
        for setting in given { try setting.resolve(environment, &draft) }
        self = try draft.finished()
    }
}
