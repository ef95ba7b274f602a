// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "carousel",
    // macOS 13: swift-snapshot-testing needs 10.15, and `MediaTime` takes a `Duration`. Without
    // a platform SwiftPM's default (10.13) stops every build on macOS, since the snapshot
    // target depends on a product that needs more. Linux has no minimum.
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Carousel", targets: ["Carousel"]),
        .library(name: "CarouselSnapshotTesting", targets: ["CarouselSnapshotTesting"]),
        .library(name: "CarouselSamples", targets: ["CarouselSamples"]),
        .executable(name: "carousel", targets: ["CarouselCLI"]),
        .plugin(name: "CarouselPlugin", targets: ["CarouselPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // Debian ships libgif.pc; on macOS scripts/install-deps writes one for Homebrew's giflib.
        .systemLibrary(
            name: "CGifLib",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        .systemLibrary(
            name: "CLibWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .target(
            name: "Carousel",
            dependencies: ["CLibPNG", "CGifLib", "CLibWebP"]
        ),
        .target(
            name: "CarouselSnapshotTesting",
            dependencies: [
                "Carousel",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .target(
            name: "CarouselSamples",
            path: "SampleImages",
            exclude: ["make-samples.py"],
            sources: ["SampleImages.swift"],
            resources: [.copy("banners")]
        ),
        .executableTarget(
            name: "CarouselCLI",
            dependencies: [
                "Carousel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(
            name: "CarouselPlugin",
            capability: .command(
                intent: .custom(verb: "carousel", description: "Render a carousel GIF, frames or strip into the package (docs media)"),
                permissions: [.writeToPackageDirectory(reason: "carousel writes the rendered GIF, WebP, APNG or PNG files into the package")]
            ),
            dependencies: ["CarouselCLI"]
        ),
        .target(
            name: "CarouselTestSupport",
            dependencies: ["Carousel", "CGifLib", "CLibWebP"],
            path: "Tests/CarouselTestSupport"
        ),
        .testTarget(
            name: "CarouselTests",
            dependencies: ["Carousel", "CarouselSamples", "CarouselTestSupport"]
        ),
        .testTarget(
            name: "CarouselSnapshotTestingTests",
            dependencies: ["CarouselSnapshotTesting", "Carousel", "CarouselSamples",
                           .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "CarouselCLITests",
            dependencies: ["CarouselCLI", "Carousel", "CarouselTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
