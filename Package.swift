// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Fieldbook",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "fieldbook", targets: ["fieldbook"])],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        // zlib, for gzip-compressed answers (HTTPServer/Gzip.swift) and ZIP archives (Archives).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // ZIP archives written while they download (exports) and read a member at a time (restores).
        .target(name: "Archives", dependencies: ["CZlib"]),
        // Shared libraries opened when first needed rather than linked (libvips, libpq, libcurl).
        .target(name: "CLibraryLoader"),
        // libvips, for photos (Imaging/PhotoProcessor.swift), opened with dlopen by the first photo (CVips.h says why).
        .target(name: "CVips", dependencies: ["CLibraryLoader"]),
        // libqrencode, for the "Add a device" page's QR code (Imaging/QRCode.swift), opened by the first code (CQRCode.h).
        .target(name: "CQRCode", dependencies: ["CLibraryLoader"]),
        .target(name: "Imaging", dependencies: ["CVips", "CQRCode", .product(name: "Logging", package: "swift-log")]),
        // libpq, for the PostgreSQL hub (PostgresHub/LibPQ.swift), opened by the hub's first connection (CPostgres.h).
        .target(name: "CPostgres", dependencies: ["CLibraryLoader"]),
        // The PostgreSQL hub stays off Storage (GRDB): what it shares with the SQLite hub is in Hub.
        .target(name: "PostgresHub", dependencies: ["CPostgres", "Domain", "Records", "Credentials", "Hub", .product(name: "Logging", package: "swift-log")]),
        // GnuTLS, for the certificate a running server presents (replaced when renewed, CServerTLS.h).
        .target(name: "CServerTLS", linkerSettings: [.linkedLibrary("gnutls"), .linkedLibrary("microhttpd")]),
        .target(name: "HTTPServer", dependencies: [
            "CMicroHTTPD", "CServerTLS", "CZlib", .product(name: "Logging", package: "swift-log"),
        ]),
        // libgettextpo, gettext's reader of .po catalogs, opened for reading them at start-up (CGettextPO.h).
        .target(name: "CGettextPO", dependencies: ["CLibraryLoader"]),
        // The languages pages are shown in: catalogs, plural rules, the reader's language, formats (Foundation only).
        .target(name: "Translations", dependencies: ["CGettextPO"]),
        // Domain words its messages as `Message`s (an English msgid and its values), which pages translate.
        .target(name: "Domain", dependencies: ["Translations"]),
        // Fieldbook's own certificate authority and the server certificates it signs, for HTTPS on the LAN.
        .target(name: "LANCertificates", dependencies: [
            "Archives", "HTTPServer", .product(name: "Crypto", package: "swift-crypto"), .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // Each record kind declared once: its fields, their rules, references and flags (Foundation, Domain and Message).
        .target(name: "Records", dependencies: ["Domain", "Translations"]),
        // Account secrets: password hashes, session and API tokens, and comparing secrets in constant time.
        .target(name: "Credentials", dependencies: [
            "Domain", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        // What both kinds of hub share: the protocol nodes talk to, how a pushed operation is decided and photo file
        // checks.
        .target(name: "Hub", dependencies: [
            "Domain", "Records", "Credentials", "Imaging", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "Storage", dependencies: [
            "Domain", "Records", "Credentials", "Hub", "Imaging", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            // A backup is a ZIP archive (Jobs/Backup).
            "Archives",
        ]),
        // libcurl, for a node's requests to its hub (Sync/CurlTransfer.swift), opened by the first one (CCurl.h).
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        .target(name: "Sync", dependencies: [
            "CCurl", "Domain", "Records", "Storage", "LANCertificates", .product(name: "Logging", package: "swift-log"),
            // The Apple profile's identifiers, from the authority's digest.
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // What the pages and the JSON API share: access levels, the error mapping, the sign-in throttle, route
        // patterns and list parameter names.
        .target(name: "Surface", dependencies: ["Archives", "HTTPServer", "Domain", "Records", "Storage"]),
        .target(name: "WebUI", dependencies: [
            "Archives", "Translations", "HTTPServer", "Domain", "Records", "Credentials", "Storage", "Imaging", "Sync", "Surface", "LANCertificates",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "JSONAPI", dependencies: [
            "HTTPServer", "Domain", "Records", "Credentials", "Hub", "Storage", "Sync", "Surface",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // libavahi-client, to announce serve on the LAN (App/LANAnnouncer.swift), opened when serve first announces (CAvahi.h).
        .target(name: "CAvahi", dependencies: ["CLibraryLoader"]),
        // glibc's allocator settings, for the server's memory (App/MallocArenas.swift).
        .systemLibrary(name: "CMalloc"),
        // The commit a release was built from, for `fieldbook --version` (CBuildStamp.h says how it gets there).
        .target(name: "CBuildStamp"),
        .target(name: "App", dependencies: [
            "CAvahi", "CBuildStamp", "CMalloc", "HTTPServer", "Translations", "LANCertificates", "Domain", "Credentials", "Hub", "Storage", "Sync", "Surface", "WebUI", "JSONAPI", "PostgresHub",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "fieldbook", dependencies: [
            "App",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "DomainTests", dependencies: [
            "Domain", "Records", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "StorageTests", dependencies: [
            "Archives", "Storage", "Records", "Credentials", "Hub", "Domain", "Imaging", "TestSupport",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: [
            "HTTPServer", "TestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "WebUITests", dependencies: [
            "WebUI", "Storage", "Domain", "HTTPServer", "Sync", "App", "Surface", "JSONAPI", "TestSupport", "Imaging", "Hub", "LANCertificates",
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "TranslationsTests", dependencies: ["Translations"]),
        .testTarget(name: "ArchivesTests", dependencies: ["Archives", "TestSupport"]),
        .testTarget(name: "SyncTests", dependencies: [
            "Sync", "Records", "Hub", "Storage", "Domain", .product(name: "PropertyBased", package: "swift-property-based"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "JSONAPITests", dependencies: ["TestSupport", 
            "JSONAPI", "Records", "Credentials", "Hub", "Storage", "Domain", "HTTPServer", "Surface", "Imaging",
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "SurfaceTests", dependencies: ["Surface", "Domain", "HTTPServer"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
        .testTarget(name: "AppTests", dependencies: ["App"]),
        .testTarget(name: "LANCertificatesTests", dependencies: [
            "LANCertificates", "HTTPServer", "TestSupport", .product(name: "X509", package: "swift-certificates"),
        ]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
        .testTarget(name: "PostgresHubTests", dependencies: ["PostgresHub", "Records", "Credentials", "Hub", "Storage", "Domain", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
