// swift-tools-version:6.0
import PackageDescription

// An app-side package that renders its docs media with carousel's command plugin:
//
//   swift package --allow-writing-to-package-directory carousel render \
//       --size 375x211 --item-width 343 --spacing 8 -o Docs/banner.gif
//
// It depends on the carousel package two folders up, by path.
let package = Package(
    name: "PluginDemo",
    platforms: [.macOS(.v13)],    // carousel's own minimum
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .target(name: "Banner"),
    ],
    swiftLanguageModes: [.v6]
)
