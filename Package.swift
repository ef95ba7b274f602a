// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "carousel",
    products: [
        .library(name: "Carousel", targets: ["Carousel"]),
        .library(name: "CarouselSnapshotTesting", targets: ["CarouselSnapshotTesting"]),
        .library(name: "CarouselSamples", targets: ["CarouselSamples"]),
        .executable(name: "carousel", targets: ["CarouselCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CGifLib",
            providers: [.apt(["libgif-dev"])]
        ),
        .target(
            name: "Carousel",
            dependencies: ["CLibPNG", "CGifLib"]
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
                "CarouselSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "CarouselTestSupport",
            dependencies: ["Carousel", "CGifLib"],
            path: "Tests/CarouselTestSupport"
        ),
        .testTarget(
            name: "CarouselTests",
            dependencies: ["Carousel", "CarouselSamples", "CarouselTestSupport"]
        ),
        .testTarget(
            name: "CarouselSnapshotTestingTests",
            dependencies: ["CarouselSnapshotTesting", "Carousel", "CarouselSamples",
                           .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
        ),
        .testTarget(
            name: "CarouselCLITests",
            dependencies: ["CarouselCLI", "Carousel", "CarouselTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
