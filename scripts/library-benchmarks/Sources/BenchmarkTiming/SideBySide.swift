import Foundation

/// Runs each contender's work in turns (A, B, A, B...) so both see the same machine, and prints the median time of one
/// run of the work for each (elapsed, and the CPU time of every thread of the process doing it), and how the library's
/// compares with Fieldbook's.
public struct SideBySide {
    public struct Contender {
        let name: String
        /// One round: `repetitions` runs of the work, and the time of one of them.
        let round: (_ repetitions: Int) throws -> Timing

        public init(_ name: String, _ work: @escaping () throws -> Void) {
            self.name = name
            round = { repetitions in try Timing.of(repetitions: repetitions, work) }
        }

        /// Work done by another program (`arguments` then the number of repetitions), which prints its `Timing`: for
        /// code that cannot be linked into one program with the other contender's.
        public init(_ name: String, program: String, _ arguments: [String]) {
            self.name = name
            round = { repetitions in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: program)
                process.arguments = arguments + [String(repetitions)]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                guard process.terminationStatus == 0, let timing = Timing(printed) else {
                    throw BenchmarkFailure(message: "\(program) \(arguments.joined(separator: " ")) failed: \(printed)")
                }
                return timing
            }
        }
    }

    /// The time one run of the work took, in microseconds.
    public struct Timing: CustomStringConvertible {
        public let elapsed: Double, cpu: Double

        public static func of(repetitions: Int, _ work: () throws -> Void) throws -> Timing {
            let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuMicroseconds()
            for _ in 0..<repetitions { try work() }
            return Timing(elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / Double(repetitions) / 1_000,
                          cpu: (cpuMicroseconds() - cpuStart) / Double(repetitions))
        }

        init(elapsed: Double, cpu: Double) {
            self.elapsed = elapsed
            self.cpu = cpu
        }

        init?(_ printed: String) {
            let numbers = printed.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            guard numbers.count == 2 else { return nil }
            (elapsed, cpu) = (numbers[0], numbers[1])
        }

        /// What `init?(_ printed:)` reads back.
        public var description: String { "\(elapsed) \(cpu)" }

        /// User and system time of the whole process so far.
        private static func cpuMicroseconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        }
    }

    let title: String
    let rounds: Int
    let repetitions: Int

    /// `repetitions` runs of the work make one timed round; each contender has `rounds` of them.
    public init(_ title: String, rounds: Int = 7, repetitions: Int) {
        self.title = title
        self.rounds = rounds
        self.repetitions = repetitions
    }

    /// The first contender is Fieldbook's code, the second the library's.
    public func run(_ fieldbook: Contender, _ library: Contender) throws {
        let contenders = [fieldbook, library]
        for contender in contenders { _ = try contender.round(1) }  // warm up
        var timings: [[Timing]] = [[], []]
        for _ in 0..<rounds {
            for (index, contender) in contenders.enumerated() { timings[index].append(try contender.round(repetitions)) }
        }
        let elapsed = timings.map { Self.median($0.map(\.elapsed)) }, cpu = timings.map { Self.median($0.map(\.cpu)) }
        print(title)
        for (index, contender) in contenders.enumerated() {
            print("  \(contender.name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(Self.format(elapsed[index])) µs elapsed \(Self.format(cpu[index])) µs CPU")
        }
        print("  library / Fieldbook: \(String(format: "%.2f", elapsed[1] / elapsed[0]))× elapsed, \(String(format: "%.2f", cpu[1] / cpu[0]))× CPU")
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func format(_ microseconds: Double) -> String {
        String(format: "%11.1f", microseconds)
    }
}

public struct BenchmarkFailure: Error {
    public let message: String

    public init(message: String) { self.message = message }
}

/// Stops the benchmark when the two implementations disagree: a figure is only worth having for the same result.
public func requireSame<T: Equatable>(_ fieldbook: T, _ library: T, _ what: String) {
    guard fieldbook == library else {
        print("\(what): Fieldbook's and the library's results differ")
        exit(1)
    }
}
