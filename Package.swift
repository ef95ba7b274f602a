// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "carousel",
    products: [
        .library(name: "Carousel", targets: ["Carousel"]),
        .executable(name: "carousel", targets: ["CarouselCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
            name: "CarouselCLITests",
            dependencies: ["CarouselCLI", "Carousel", "CarouselTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
