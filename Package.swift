// swift-tools-version:6.0
// Earshot: hear what a VoiceOver user hears. Depends on the Swift toolchain only; the C libraries
// (libespeak-ng, opened at run time, and libasound) come from Debian's -dev packages installed by the
// README's commands.
import PackageDescription

let package = Package(
    name: "Earshot",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "earshot", targets: ["earshot"]),
        .library(name: "EarshotTesting", targets: ["EarshotTesting"]),
        .library(name: "EarshotCore", targets: ["EarshotCore"]),
        // The espeak-ng synthesizer that EarshotTesting sessions are given in other packages' test suites.
        .library(name: "EarshotSystem", targets: ["EarshotSystem"]),
    ],
    targets: [
        .target(
            name: "CEarshot",
            // libespeak-ng is opened with dlopen when first needed (see Sources/CEarshot/espeak_library.h); its
            // headers come from libespeak-ng-dev.
            linkerSettings: [.linkedLibrary("asound"), .linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(name: "EarshotCore"),
        .target(name: "EarshotScript", dependencies: ["EarshotCore"]),
        .target(name: "EarshotAudio", dependencies: ["EarshotCore"]),
        .target(
            name: "EarshotSystem",
            dependencies: ["CEarshot", "EarshotCore", "EarshotScript", "EarshotAudio"]
        ),
        // The reports: check text, JSON, SARIF, JUnit, the review page and the mix plan. No System: reports
        // never touch espeak-ng or ALSA themselves.
        .target(name: "EarshotReport", dependencies: ["EarshotCore", "EarshotScript", "EarshotAudio"]),
        // Benchmark workloads and measuring in child processes; the `bench` command wires it.
        .target(name: "EarshotBench", dependencies: ["EarshotCore"]),
        .target(
            name: "EarshotCLI",
            dependencies: [
                "EarshotCore", "EarshotScript", "EarshotAudio", "EarshotSystem", "EarshotReport", "EarshotBench",
            ]
        ),
        .executableTarget(name: "earshot", dependencies: ["EarshotCLI"]),
        .target(name: "EarshotTesting", dependencies: ["EarshotCore"]),
        // Helpers several test targets share (a seeded random generator, the paced audio daemon, a fixed-length
        // synthesizer the fuzzer uses too).
        .target(name: "EarshotTestSupport", dependencies: ["EarshotCore"], path: "Tests/EarshotTestSupport"),
        .testTarget(name: "EarshotCoreTests", dependencies: ["EarshotCore", "EarshotTestSupport"]),
        .testTarget(
            name: "EarshotScriptTests",
            dependencies: ["EarshotScript", "EarshotCore", "EarshotSystem", "EarshotTestSupport"]
        ),
        .testTarget(name: "EarshotAudioTests", dependencies: ["EarshotAudio", "EarshotCore"]),
        .testTarget(
            name: "EarshotSystemTests",
            dependencies: [
                "EarshotSystem", "EarshotCore", "EarshotAudio", "EarshotScript", "EarshotBench", "EarshotTestSupport",
            ]
        ),
        .testTarget(
            name: "EarshotReportTests",
            dependencies: ["EarshotReport", "EarshotCore", "EarshotScript", "EarshotAudio", "EarshotSystem"]
        ),
        .testTarget(
            name: "EarshotCLITests",
            dependencies: [
                "EarshotCLI", "EarshotReport", "EarshotSystem", "EarshotCore", "EarshotScript", "EarshotTestSupport",
            ]
        ),
        .testTarget(name: "EarshotBenchTests", dependencies: ["EarshotBench", "EarshotCore", "EarshotScript"]),
        .testTarget(
            name: "EarshotTestingTests",
            dependencies: ["EarshotTesting", "EarshotCore", "EarshotSystem"]
        ),
    ]
)
