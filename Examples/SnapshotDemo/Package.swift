// swift-tools-version:6.0
import PackageDescription

// Depends on the carousel package two folders up, by path. SwiftPM names a path
// dependency after its folder, so the folder's name is read here rather than assumed.
let carouselFolder = "../.."
let carousel = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "carousel"

let package = Package(
    name: "SnapshotDemo",
    platforms: [.macOS(.v13)],    // carousel's own minimum
    dependencies: [
        .package(path: carouselFolder),
    ],
    targets: [
        .target(
            name: "DemoBanner",
            dependencies: [
                .product(name: "Carousel", package: carousel),
                .product(name: "CarouselSamples", package: carousel),
            ]
        ),
        .testTarget(
            name: "DemoBannerTests",
            dependencies: [
                "DemoBanner",
                .product(name: "CarouselSnapshotTesting", package: carousel),
            ],
            exclude: ["__Snapshots__"]    // the PNG references are not sources
        ),
    ],
    swiftLanguageModes: [.v6]
)
