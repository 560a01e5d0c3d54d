// swift-tools-version:6.0
// A package outside Earshot that tests its own screen with EarshotTesting and the real espeak-ng
// synthesizer from EarshotSystem, the way another team would. `make consumer` builds and tests it in
// debug and release, so a change that breaks Earshot's libraries for their users fails Earshot's tests.
import PackageDescription

let package = Package(
    name: "ConsumerPackage",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Earshot", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "ConsumerTests",
            dependencies: [
                .product(name: "EarshotTesting", package: "Earshot"),
                .product(name: "EarshotSystem", package: "Earshot"),
            ]
        )
    ]
)
