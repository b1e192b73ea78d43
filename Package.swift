// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
  // Zero warnings, kept so: every Swift target of Chime's own (Sources/ and Tests/) fails to build
  // on a new one. Generated C (CChimeProto) and the dependencies are not affected.
  .unsafeFlags(["-warnings-as-errors"]),
]

// `chime` and `chimed` link the Swift runtime statically in release builds, as fixed-address
// executables: no dynamic loading and binding of the runtime at each start (`chime pending`
// linked dynamically took 8.3 ms where the static one took 4.7) and no relative relocations,
// whose pages would be written and kept (bench/NOTES.md has the figures). They export no
// symbols: `-static-stdlib` passes -export-dynamic, which put thousands of their own symbols in
// the dynamic table for ld.so to hash through at every start; nothing loads into them that
// needs them (`--no-export-dynamic` comes after it and wins).
let staticLinking = ["-static-stdlib", "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"]
// chimed: the standard library alone. Its modules import no Foundation of any kind (source
// check in FoundationBoundaryTests; a stray import fails this link):
// FoundationEssentials' metadata alone would keep about 7 MB of its code in the binary.
let chimedReleaseLinking: [LinkerSetting] = [
  .unsafeFlags(staticLinking, .when(platforms: [.linux], configuration: .release)),
]
// chime: FoundationEssentials too (ArgumentParser and the CLI's JSON need it), never Foundation:
// no CoreFoundation and no ICU (zones are Chime's own, from the system's TZif files;
// scripts/check-binaries.sh checks). The static archives refer to one another: they are named
// twice, so the linker resolves each one's references to the others.
let staticEssentials = ["-lFoundationEssentials", "-l_FoundationCollections", "-l_FoundationCShims"]
// chime also links libstdc++ and libgcc statically, the only C++ in it being the Swift runtime's:
// ld.so's loading and binding of libstdc++.so and libgcc_s.so was a tenth of `chime pending`'s
// instructions. link/libstdc++.so is a linker script naming the static archive, so the -lstdc++
// of the runtime's own link arguments finds it first; -lstdc++ is named again at the end for the
// runtime archives linked after those arguments. A program that loads a C++ library (ICU through
// libical in chime-calendar) keeps the shared one: two copies in one process would not be safe.
let staticCxx = ["-L", Context.packageDirectory + "/link", "-Xclang-linker", "-static-libgcc", "-lstdc++"]
let chimeReleaseLinking: [LinkerSetting] = [
  .unsafeFlags(staticLinking + staticEssentials + staticEssentials + staticCxx, .when(platforms: [.linux], configuration: .release)),
]

// chime-thumbnail and chime-calendar: the Swift runtime static as well (their C libraries,
// FFmpeg, gdk-pixbuf and libical, stay dynamic). Linked against the toolchain's shared runtime
// they carried a RUNPATH into the toolchain (/opt/swift/...), so an installed copy ran only where
// that toolchain is: the Debian package (debian/, `make deb`) installs on a system without Swift,
// and dpkg-shlibdeps finds no package for a toolchain library. It costs about 7.5 MB each
// (2.1 → 9.7 MB stripped; scripts/check-binaries.sh). chime-thumbnail's FoundationEssentials
// comes from the toolchain's static archives, as chime's does; chime-calendar uses none.
let thumbnailReleaseLinking: [LinkerSetting] = [
  .unsafeFlags(staticLinking + staticEssentials + staticEssentials, .when(platforms: [.linux], configuration: .release)),
]
let calendarReleaseLinking: [LinkerSetting] = [
  .unsafeFlags(staticLinking, .when(platforms: [.linux], configuration: .release)),
]

// The include directories `pkg-config --cflags gdk-pixbuf-2.0` names on Debian (glibconfig.h
// lives under the multiarch library directory); a directory that does not exist is ignored.
let gdkPixbufIncludes: [SwiftSetting] = [
  .unsafeFlags(["/usr/include/gdk-pixbuf-2.0", "/usr/include/glib-2.0",
                "/usr/lib/x86_64-linux-gnu/glib-2.0/include", "/usr/lib/aarch64-linux-gnu/glib-2.0/include"]
                 .flatMap { ["-Xcc", "-I\($0)"] }),
]

let package = Package(
  name: "Chime",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "chimed", targets: ["chimed"]),
    .executable(name: "chime", targets: ["chime"]),
    .executable(name: "chime-bench", targets: ["chime-bench"]),
    .executable(name: "chime-thumbnail", targets: ["chime-thumbnail"]),
    .executable(name: "chime-calendar", targets: ["chime-calendar"]),
    .library(name: "ChimeClient", targets: ["ChimeClient"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
  ],
  targets: [
    // C boundary
    .systemLibrary(
      name: "CLibUV",
      pkgConfig: "libuv",
      providers: [.apt(["libuv1-dev"])]
    ),
    // The store's database: SQLite's C API, under ChimeStore's own thin layer (ChimeStore/SQLite).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // Linux calls Glibc's module does not export (pidfd_open, pidfd_send_signal); glibc itself.
    .systemLibrary(name: "CLinux"),
    .systemLibrary(
      name: "CSystemd",
      pkgConfig: "libsystemd",
      providers: [.apt(["libsystemd-dev"])]
    ),
    // Thumbnails: gdk-pixbuf decodes, crops, scales and writes images; FFmpeg decodes the frame
    // of a movie, an animated GIF or an animated PNG.
    // No pkgConfig: gdk-pixbuf's .pc adds -pthread, which SwiftPM drops with a warning on every
    // build; ChimeThumbnail passes the include directories itself (`gdkPixbufIncludes`) and the
    // module map links the libraries.
    .systemLibrary(
      name: "CGdkPixbuf",
      providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
    ),
    .systemLibrary(
      name: "CFFmpeg",
      pkgConfig: "libavformat",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
    ),
    // No pkgConfig: libcanberra's .pc adds -D_REENTRANT, which SwiftPM refuses with a warning;
    // the header is in /usr/include and the module map links the library.
    .systemLibrary(
      name: "CCanberra",
      providers: [.apt(["libcanberra-dev"])]
    ),
    // Calendars: libical parses iCalendar items (unfolding, parameters, escapes, VTIMEZONE);
    // only ChimeCalendar imports it. Its recurrence expansion is not used (ChimeCore's is).
    .systemLibrary(
      name: "CLibical",
      pkgConfig: "libical",
      providers: [.apt(["libical-dev"])]
    ),
    // HTTP/2 for the gRPC transport: framing, HPACK and flow control (the library Node's http2
    // runs on libuv).
    .systemLibrary(
      name: "CNGHTTP2",
      pkgConfig: "libnghttp2",
      providers: [.apt(["libnghttp2-dev"])]
    ),
    // The descriptor set of Protos/ (scripts/gen-descriptors.sh), linked in for gRPC reflection.
    .target(
      name: "CChimeDescriptors",
      path: "Sources/CChimeDescriptors",
      exclude: ["Generated/chime.protoset"],
      cSettings: [.headerSearchPath("Generated")]
    ),
    .target(
      name: "CChimeProto",
      path: "Sources/CChimeProto",
      publicHeadersPath: "Generated",
      cSettings: [.headerSearchPath("Generated")],
      linkerSettings: [.linkedLibrary("protobuf-c")]
    ),

    // Swift layers, dependencies point down.
    // Reading a zone's TZif file (open, fstat, read): the one system call the domain needs, as
    // it checks and expands zones by name wherever a request names one.
    .target(
      name: "ChimeZoneFiles",
      swiftSettings: strictSettings
    ),
    .target(
      name: "ChimeCore",
      dependencies: ["ChimeZoneFiles"],
      swiftSettings: strictSettings
    ),
    // The few syscalls the domain needs (files opened safely, the system zone, the environment,
    // Unix sockets), behind small Swift types: ChimeCore stays pure.
    .target(
      name: "ChimeSystem",
      dependencies: ["ChimeCore", "CLinux"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "ChimeStore",
      dependencies: [
        "ChimeCore", "ChimeSystem", "ChimeRecords", "CSQLite",
        .product(name: "Logging", package: "swift-log"),
        // Page tokens are base64url.
        .product(name: "ExtrasBase64", package: "swift-extras-base64"),
      ],
      swiftSettings: strictSettings
    ),
    // Calendar items on disk (a vdir or one .ics file) read through libical into ChimeCore's
    // CalendarItem; ChimeCore's CalendarAlarmPlanner turns them into alarm instants.
    .target(
      name: "ChimeCalendar",
      dependencies: ["ChimeCore", "ChimeSystem", "CLibical"],
      swiftSettings: strictSettings
    ),
    // Reads a calendar and prints its alarms for a window: `chime calendar alarms` runs it, so
    // libical (with ICU and libstdc++, about 5 ms to load) is not linked into chime.
    .executableTarget(
      name: "chime-calendar",
      dependencies: ["ChimeCalendar", "ChimeCore", "ChimeRecords", "ChimeSystem"],
      swiftSettings: strictSettings,
      linkerSettings: calendarReleaseLinking
    ),
    // The records the store keeps (pending requests, delivered notifications, categories,
    // events) as the contract's protobuf messages, and the protobuf-c plumbing (arena, pack and
    // unpack) ChimeWire builds its call payloads with: the store's row format without the wire
    // layer.
    .target(
      name: "ChimeRecords",
      dependencies: ["ChimeCore", "CChimeProto"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "ChimeWire",
      dependencies: ["ChimeCore", "ChimeRecords", "CChimeProto"],
      swiftSettings: strictSettings
    ),
    // Renders attachment thumbnails (blocking): linked only by the `chime-thumbnail` helper,
    // which chimed and the CLI run per thumbnail (the decoders and their libraries stay out of
    // both, and untrusted files are decoded outside the daemon).
    .target(
      name: "ChimeThumbnail",
      dependencies: ["ChimeCore", "ChimeSystem", "CGdkPixbuf", "CFFmpeg"],
      swiftSettings: strictSettings + gdkPixbufIncludes
    ),
    .executableTarget(
      name: "chime-thumbnail",
      dependencies: ["ChimeThumbnail", "ChimeCore", "ChimeSystem"],
      swiftSettings: strictSettings,
      linkerSettings: thumbnailReleaseLinking
    ),
    // The service: the loop (the only module that calls libuv), call routing, the service
    // parts, the scheduler, presenters, calendars; and the transport contract (`ServerTransport`,
    // `StreamProtocol`) the transport modules below implement. It imports no transport.
    .target(
      name: "ChimeServer",
      dependencies: [
        "ChimeCore", "ChimeStore", "ChimeSystem", "ChimeWire", "CLibUV", "CCanberra",
        // The settings' landing types (ServerPaths, ServerLimits, ServerPolicy), declared with chimed.toml's keys.
        "ChimeConfig",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: strictSettings
    ),
    // One module per transport, each importing the service and its own C library only (source
    // check in TransportImportTests); chimed assembles them (`ServerTransports`).
    // The native framing on the socket: the default protocol, no C library of its own.
    .target(
      name: "ChimeNativeTransport",
      dependencies: ["ChimeServer", "ChimeConfig", "ChimeCore", "ChimeWire", .product(name: "Logging", package: "swift-log")],
      swiftSettings: strictSettings
    ),
    // gRPC on the same socket: nghttp2's server session, and the descriptor set it serves for
    // reflection.
    .target(
      name: "ChimeGRPC",
      dependencies: [
        "ChimeServer", "ChimeConfig", "ChimeCore", "ChimeWire", "CNGHTTP2", "CChimeDescriptors",
        .product(name: "Logging", package: "swift-log"),
        // grpc-status-details-bin is base64 (no Foundation: ChimeStore links it already).
        .product(name: "ExtrasBase64", package: "swift-extras-base64"),
      ],
      swiftSettings: strictSettings
    ),
    // The D-Bus API on the session bus, and the freedesktop presenter's connection to the
    // notification server: one sd-bus driver on the loop (`BusConnection`) for both.
    .target(
      name: "ChimeDBus",
      dependencies: ["ChimeServer", "ChimeConfig", "ChimeCore", "ChimeSystem", "ChimeWire", "CSystemd", .product(name: "Logging", package: "swift-log")],
      swiftSettings: strictSettings
    ),
    // The version with the git revision the binaries were built from (written before each build
    // by the GitRevision plugin; its own target so a new commit recompiles one file).
    .target(
      name: "ChimeBuildInfo",
      dependencies: ["ChimeCore"],
      swiftSettings: strictSettings,
      plugins: ["GitRevision"]
    ),
    .plugin(name: "GitRevision", capability: .buildTool()),
    // chimed.toml: parsed (a TOML 1.0 reader of its own, no Foundation), checked and merged with
    // flags and environment; chimed's command line. Read by chimed and by `chime doctor`.
    .target(
      name: "ChimeConfig",
      dependencies: ["ChimeCore", "ChimeSystem"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "chimed",
      dependencies: [
        "ChimeServer", "ChimeStore", "ChimeCore", "ChimeSystem", "CSystemd", "ChimeConfig", "ChimeBuildInfo",
        // The transports chimed assembles.
        "ChimeNativeTransport", "ChimeGRPC", "ChimeDBus",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: chimedReleaseLinking
    ),
    .target(
      name: "ChimeClient",
      dependencies: ["ChimeCore", "ChimeSystem", "ChimeWire"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "chime",
      dependencies: [
        "ChimeClient", "ChimeCore", "ChimeRecords", "ChimeSystem", "ChimeConfig", "ChimeBuildInfo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: chimeReleaseLinking
    ),
    .executableTarget(
      name: "chime-bench",
      dependencies: [
        "ChimeClient", "ChimeCore", "ChimeSystem", "ChimeWire",
        // chimed's store in-process: what the storage alone does with the same adds.
        "ChimeStore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        // The sqlite3 C library alone: the SQLite floor.
        "CSQLite",
        // The gRPC phase's client: nghttp2 sessions over chimed's socket.
        "CNGHTTP2",
      ],
      swiftSettings: strictSettings
    ),

    // Tests mirror the sources; shared helpers live in ChimeTestSupport.
    .target(
      name: "ChimeTestSupport",
      dependencies: ["ChimeCore", "ChimeSystem", "ChimeClient"],
      path: "Tests/ChimeTestSupport",
      swiftSettings: strictSettings
    ),
    .testTarget(name: "ChimeCoreTests", dependencies: ["ChimeCore", "ChimeZoneFiles", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeSystemTests", dependencies: ["ChimeSystem", "ChimeCore", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeStoreTests", dependencies: ["ChimeStore", "ChimeRecords", "ChimeCore", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeThumbnailTests", dependencies: ["ChimeThumbnail", "ChimeCore", "ChimeSystem", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeCalendarTests", dependencies: ["ChimeCalendar", "ChimeCore", "ChimeRecords", "ChimeSystem", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeRecordsTests", dependencies: ["ChimeRecords", "ChimeCore", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeWireTests", dependencies: ["ChimeWire", "ChimeCore", "ChimeSystem", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ChimeClientTests", dependencies: ["ChimeClient", "ChimeWire", "ChimeCore", "ChimeSystem", "ChimeTestSupport"], swiftSettings: strictSettings),
    .testTarget(
      name: "ChimeServerTests",
      dependencies: [
        "ChimeServer", "ChimeConfig", "ChimeStore", "ChimeWire", "ChimeCore", "ChimeClient", "ChimeTestSupport", "ChimeThumbnail",
        // The transports, which the in-process daemon serves as chimed does.
        "ChimeNativeTransport", "ChimeGRPC", "ChimeDBus",
        // An HTTP/2 client for the gRPC transport's tests.
        "CNGHTTP2",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(name: "ChimeConfigTests", dependencies: ["ChimeConfig", "ChimeCore"], swiftSettings: strictSettings),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "ChimeClient", "ChimeCore", "ChimeTestSupport", "ChimeThumbnail",
        // The declared settings, which chimed's --help, --print-config and man page must list.
        "ChimeConfig",
        // Its SQLite layer, to damage a stopped daemon's store the way a hand edit would.
        "ChimeStore",
      ],
      swiftSettings: strictSettings
    ),
  ]
)
