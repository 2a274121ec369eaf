// swift-tools-version:6.0
// Side-by-side benchmarks of Fieldbook's hand-written code against the library each piece stands in for, the same work
// in the same process: scripts/benchmark-libraries.sh builds and runs them. Fieldbook's sources are compiled from the
// checkout through the symbolic links under Sources/, so each figure is of the code as it is.
import PackageDescription

let package = Package(
    name: "LibraryBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
        .target(name: "Domain"),
        .target(name: "Archives", dependencies: ["CZlib"]),
        .target(name: "BenchmarkTiming"),
        .executableTarget(name: "benchmark-templates", dependencies: [
            "Domain", "BenchmarkTiming", .product(name: "Mustache", package: "swift-mustache"),
        ]),
        // Fieldbook's zlib module and ZIPFoundation's are both named CZlib: each ZIP contender is a program of its own.
        .target(name: "ZipBenchmarkWork", dependencies: ["BenchmarkTiming"]),
        .executableTarget(name: "zip-fieldbook", dependencies: ["Archives", "ZipBenchmarkWork"]),
        .executableTarget(name: "zip-zipfoundation", dependencies: [
            "ZipBenchmarkWork", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .executableTarget(name: "benchmark-zip", dependencies: ["BenchmarkTiming", "ZipBenchmarkWork"]),
        .executableTarget(name: "benchmark-csv", dependencies: [
            "Domain", "BenchmarkTiming", .product(name: "CSV", package: "CSV.swift"),
        ]),
        .executableTarget(name: "benchmark-wire", dependencies: ["Domain", "BenchmarkTiming"]),
        .target(name: "CLibraryLoader"),
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        .executableTarget(name: "benchmark-curl", dependencies: ["CCurl", "BenchmarkTiming"]),
        .target(name: "CPostgres", dependencies: ["CLibraryLoader"]),
        .executableTarget(name: "benchmark-postgres", dependencies: [
            "CPostgres", "BenchmarkTiming", .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
