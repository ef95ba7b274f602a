import Carousel
@testable import CarouselSnapshotTesting
import Foundation
import SnapshotTesting
import Testing

struct CarouselSnapshotTests {
    /// A small carousel of flat-colour items with overlay dots (reference PNGs stay tiny).
    static func items() -> [RGBAImage] {
        (0..<3).map { k in
            var image = RGBAImage(width: 64, height: 32, fill: RGBA(r: UInt8(60 * k + 40), g: 120, b: UInt8(200 - 50 * k)))
            for y in 8..<24 { for x in 8..<(20 + 8 * k) { image[x, y] = RGBA(r: 250, g: 240, b: 220) } }
            return image
        }
    }

    static func carousel(current: RGBA = .white) throws -> Carousel {
        let items = Self.items()
        var options = CarouselOptions()
        options.hold = 0.5
        options.duration = 0.4
        options.dots.currentColor = current
        return try Carousel(images: items, options: options)
    }

    @Test func frameAtStart() throws {
        assertSnapshot(of: try Self.carousel(), as: .frame(at: 0))
    }

    @Test func framesThroughAMove() throws {
        assertSnapshot(of: try Self.carousel(), as: .frames(at: [0.4, 0.6, 0.8, 1.0]))
    }

    @Test func wholeAnimation() throws {
        assertSnapshot(of: try Self.carousel(), as: .animation())
    }

    /// A changed dot colour fails the animation at its first frame, naming index and time
    /// and writing the three images; a changed timing names the first frame that differs.
    @Test func animationMismatchNamesTheFrame() throws {
        let diffing = Diffing<AnimationSnapshot>.animation()
        func snapshot(_ carousel: Carousel) -> AnimationSnapshot {
            let sink = MemorySink()
            try? carousel.write(with: APNGEncoder(), to: sink, name: "t")
            return AnimationSnapshot(apng: sink.data)
        }
        let reference = snapshot(try Self.carousel())
        #expect(reference.frames.count > 3 && diffing.diffV2(reference, reference) == nil)
        let recoloured = snapshot(try Self.carousel(current: RGBA(r: 255, g: 0, b: 0)))
        let message = try #require(diffing.diffV2(reference, recoloured)?.0)
        #expect(message.hasPrefix("Carousel animation, distinct frame 0 (shown from 0.000 s), differs from its reference: "))
        #expect(message.contains("Difference: ") && message.contains("carousel-snapshots/"))
        #expect(diffing.diffV2(reference, recoloured)?.1.count == 3, "the frame's three images attached")
        var slower = CarouselOptions()
        slower.hold = 0.6
        slower.duration = 0.4
        // The first page held longer: frame 0's delay is the first difference, and its images
        // are written though its pixels match.
        let retimed = snapshot(try Carousel(images: Self.items(), options: slower))
        let timing = try #require(diffing.diffV2(reference, retimed))
        #expect(timing.0.hasPrefix("Carousel animation, distinct frame 0 (shown from 0.000 s), differs from its reference (30 frames, the "
            + "reference has 29): it shows for 16/25 s, the reference for 14/25 s; its pixels match."), "\(timing.0)")
        #expect(timing.0.contains("Difference: ") && timing.1.count == 3)
        // Another rate: the frame counts differ, and frame 0 already does (its delay).
        var faster = CarouselOptions()
        faster.hold = 0.5
        faster.duration = 0.4
        faster.fps = 20
        let other = try #require(diffing.diffV2(reference, snapshot(try Carousel(images: Self.items(), options: faster)))?.0)
        let counts = "(\(snapshot(try Carousel(images: Self.items(), options: faster)).frames.count) frames, the reference has \(reference.frames.count))"
        #expect(other.hasPrefix("Carousel animation, distinct frame 0 (shown from 0.000 s), differs from its reference \(counts): "), "\(other)")
        // An animation that stops before the reference: the first frame it lacks.
        let cut = AnimationSnapshot(frames: Array(reference.frames.prefix(2)), delays: Array(reference.delays.prefix(2)))
        let shorter = try #require(diffing.diffV2(reference, cut))
        #expect(shorter.0.hasPrefix("Carousel animation, distinct frame 2 (shown from \(String(format: "%.3f", reference.start(of: 2))) s), differs from its "
            + "reference (2 frames, the reference has \(reference.frames.count)): the animation ends before it, the reference has it."),
            "\(shorter.0)")
        #expect(shorter.1.count == 2, "the reference's frame and the difference (the whole frame unmatched), no actual")
    }

    /// A contact sheet's largest difference is placed in its frame: the time and row.
    @Test func framesMismatchNamesTheRow() throws {
        let carousel = try Self.carousel()
        let times: [MediaTime] = [0.4, 0.6, 0.8, 1.0]
        let diffing = Diffing<RGBAImage>.rgbaImage(tolerance: .exact, rows: times, subject: .frame, checkedAtSnapshot: true,
                                                   place: .unnamed)
        var sheet = RGBAImage(width: carousel.width, height: carousel.height * 4)
        for (row, time) in times.enumerated() { sheet.paste(try carousel.frame(at: time), x: 0, y: row * carousel.height) }
        var changed = sheet
        changed[5, 2 * carousel.height + 7] = RGBA(r: 1, g: 2, b: 3)
        let message = try #require(diffing.diffV2(sheet, changed)?.0)
        #expect(message.contains("at (5, \(2 * carousel.height + 7)): (5, 7) of the frame at 0.8 s, row 3 of 4."), "\(message)")
    }

    /// The count of pixels allowed is given beside its share, which two decimals round.
    @Test func summaryGivesTheCountAllowed() {
        let reference = RGBAImage(width: 240, height: 240, fill: RGBA(r: 100, g: 100, b: 100))
        var actual = reference
        for x in 0..<58 { actual[x, 0] = RGBA(r: 104, g: 100, b: 100) }
        let tolerance = FrameTolerance(pixels: 0.001, channel: 2)
        let comparison = ImageComparison(reference: reference, actual: actual, tolerance: tolerance)
        #expect(!comparison.matches(tolerance))
        #expect(comparison.summary(tolerance).contains("58 of 57600 pixels (0.10%) differ by more than 2 levels (allowed: 57, 0.10%)"))
        // The channel named is the one the pixels were counted with, whatever tolerance is
        // handed to the summary afterwards.
        #expect(comparison.summary(.exact).contains("58 of 57600 pixels (0.10%) differ by more than 2 levels (allowed: none)"))
    }

    /// A share allows every count whose share it is: 29 of 100 pixels under `pixels: 0.29`,
    /// where 0.29 times 100 is 28.999999999999996 in floating point.
    @Test func aShareAllowsTheCountItNames() {
        let reference = RGBAImage(width: 10, height: 10, fill: RGBA(r: 100, g: 100, b: 100))
        for (share, allowed) in [(0.29, 29), (0.07, 7), (0.57, 57), (1.0, 100), (0.0, 0), (0.295, 29)] {
            let tolerance = FrameTolerance(pixels: share)
            for differing in [allowed, allowed + 1] where differing <= 100 {
                var actual = reference
                for i in 0..<differing { actual[i % 10, i / 10] = RGBA(r: 0, g: 0, b: 0) }
                let comparison = ImageComparison(reference: reference, actual: actual, tolerance: tolerance)
                #expect(comparison.matches(tolerance) == (differing == allowed), "\(differing) of 100 under \(share)")
                if differing > allowed {
                    let said = allowed == 0 ? "(allowed: none)" : "(allowed: \(allowed), "
                    #expect(comparison.summary(tolerance).contains(said), "\(comparison.summary(tolerance))")
                }
            }
        }
    }

    /// A PNG reference is read back up to 2^28 pixels, as an animation's is: a contact sheet
    /// past the 2^26 of PNG decoding elsewhere (86 frames of 1125x665) was recorded, then never
    /// read back. An image past 2^28 is refused where the strategy is made.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CAROUSEL_SLOW_TESTS"] == "1",
                   "encodes and decodes a picture of more than 2^26 pixels; set CAROUSEL_SLOW_TESTS=1 to run it (CI does)"))
    func referencesPastPNGDecodingsLimitAreReadBack() throws {
        let big = RGBAImage(width: 8193, height: 8193)
        #expect(big.width * big.height > PNGCodec.maximumPixels)
        let data = try PNGCodec.encode(big)
        let read = Diffing<RGBAImage>.rgbaImage().fromData(data)
        #expect(read.width == 8193 && read.height == 8193)
    }

    /// A helper written as the documentation shows passes its caller's place on, and a failure
    /// found as the strategy is made (a time outside the timeline) is reported there, not at
    /// the helper's own line.
    @Test func aHelpersStrategyFailsAtItsCallersPlace() throws {
        let carousel = try Self.carousel()
        func strategy(at time: MediaTime, fileID: StaticString = #fileID, file: StaticString = #filePath,
                      testName: String = #function, line: UInt = #line, column: UInt = #column) -> Snapshotting<Carousel, RGBAImage> {
            .frame(at: time, fileID: fileID, filePath: file, function: testName, line: line, column: column)
        }
        let caller = #line + 1
        let made = strategy(at: 100)
        let issues = IssueCount()
        withKnownIssue {
            made.snapshot(carousel).run { _ in }
        } matching: { issue in
            issues.add(at: issue.sourceLocation)
            return true
        }
        let places = issues.places
        #expect(issues.value == 1 && places.count == 1)
        #expect(places.first?.line == caller)
        #expect(places.first?.fileID == #fileID)
    }

    /// The end of an XCTest test case leaves a Swift Testing test's count alone.
    @Test func theEndOfAnXCTestCaseLeavesSwiftTestingsCounts() {
        let place = ArtifactPlace(filePath: #filePath, function: #function)
        ArtifactCounter.shared.took(place)
        ArtifactCounter.shared.took(place)
        ArtifactCounter.shared.reset()
        #expect(ArtifactCounter.shared.number(for: place) == 2)
    }

    @Test func imagesPastWhatReferencesAreReadBackWithAreRefused() {
        #expect(referenceSizeProblem(width: 1 << 14, height: 1 << 14, subject: .frame) == nil)
        #expect(referenceSizeProblem(width: 1125, height: 665 * 358, subject: .frame) == nil)
        #expect(referenceSizeProblem(width: 1125, height: 665 * 359, subject: .frame)
            == "Carousel frame is 1125x238735, past the 268435456 pixels (2^28) a reference is read back with; snapshot fewer frames at a time")
        #expect(referenceSizeProblem(width: .max, height: 2, subject: .strip) != nil)
    }

    /// A tolerance that is not a share, or an animation past its limit, fails the test where
    /// the strategy is made, on the run that records too, once: the comparison says nothing more.
    @Test func strategiesSayTheirProblemsAtOnce() throws {
        let carousel = try Self.carousel()
        let bad = FrameTolerance(pixels: 10)
        /// The issues a snapshot of `strategy` records, and the snapshot.
        func issues<Format>(_ strategy: Snapshotting<Carousel, Format>) -> (count: Int, format: Format?) {
            let count = IssueCount()
            var format: Format?
            withKnownIssue {
                strategy.snapshot(carousel).run { format = $0 }
            } matching: { issue in
                count.add()
                return true
            }
            return (count.value, format)
        }
        let toleranceSaid = "FrameTolerance: pixels is the share"
        for strategy in [Snapshotting<Carousel, RGBAImage>.frame(at: 0, tolerance: bad), .frames(at: [0, 0.6, 1.0], tolerance: bad),
                         .strip(tolerance: bad)] {
            let (count, sheet) = issues(strategy)
            #expect(count == 1)
            let image = try #require(sheet)
            #expect(strategy.diffing.diffV2(image, image) == nil, "said once, at the strategy")
        }
        #expect(issues(Snapshotting<RGBAImage, RGBAImage>.image(tolerance: bad).pullback { (c: Carousel) in c.strip }).count == 1)
        let (once, animation) = issues(Snapshotting<Carousel, AnimationSnapshot>.animation(tolerance: bad))
        #expect(once == 1 && animation.map { Diffing<AnimationSnapshot>.animation(tolerance: bad, maximumPixels: APNGDecoder.maximumPixels,
                                                                                    checkedAtSnapshot: true, place: .unnamed).diffV2($0, $0) == nil } == true)
        let (tooLargeCount, tooLarge) = issues(Snapshotting<Carousel, AnimationSnapshot>.animation(maximumPixels: 1000))
        #expect(tooLargeCount == 1)
        let large = try #require(tooLarge)
        #expect(large.problem == "a canvas of \(carousel.width)x\(carousel.height) is over the limit of 1000 pixels",
                "\(String(describing: large.problem))")
        #expect(Diffing<AnimationSnapshot>.animation(tolerance: .exact, maximumPixels: 1000, checkedAtSnapshot: true, place: .unnamed)
            .diffV2(large, large) == nil)
        // What each says.
        withKnownIssue {
            Snapshotting<Carousel, RGBAImage>.frame(at: 0, tolerance: bad).snapshot(carousel).run { _ in }
            Snapshotting<Carousel, AnimationSnapshot>.animation(maximumPixels: 1000).snapshot(carousel).run { _ in }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix(toleranceSaid)
                    || $0.rawValue == "Carousel animation could not be compared: a canvas of \(carousel.width)x\(carousel.height) "
                        + "is over the limit of 1000 pixels; .animation(maximumPixels:) raises the limit."
            }
        }
    }

    /// A reference that is not a readable APNG fails the comparison saying why.
    @Test func unreadableAnimationReferenceSaysWhy() throws {
        let diffing = Diffing<AnimationSnapshot>.animation()
        let sink = MemorySink()
        try Self.carousel().write(with: APNGEncoder(), to: sink, name: "t")
        let actual = AnimationSnapshot(apng: sink.data)
        #expect(actual.problem == nil && !actual.frames.isEmpty)
        let text = AnimationSnapshot(apng: Data("not an image".utf8))
        #expect(text.frames.isEmpty && text.problem == "Not a PNG file")
        #expect(diffing.diffV2(text, actual)?.0
            == "Carousel animation does not match its reference: the reference could not be read as an APNG (Not a PNG file).")
        #expect(diffing.diffV2(actual, text)?.0
            == "Carousel animation could not be compared: its APNG could not be read back (Not a PNG file).")
        // Frames one pixel past the budget are refused, naming it; frames that fill it are read.
        let canvas = actual.frames[0].width * actual.frames[0].height
        #expect(AnimationSnapshot(apng: sink.data, maximumPixels: actual.frames.count * canvas).frames == actual.frames)
        #expect(AnimationSnapshot(apng: sink.data, maximumPixels: actual.frames.count * canvas - 1).problem
            == "\(actual.frames.count) frames of \(actual.frames[0].width)x\(actual.frames[0].height) are over the limit of \(actual.frames.count * canvas - 1) pixels in all")
        // Past the limit, either side says which argument raises it.
        let past = AnimationSnapshot(apng: sink.data, maximumPixels: actual.frames.count * canvas - 1)
        let limit = "\(actual.frames.count) frames of \(actual.frames[0].width)x\(actual.frames[0].height) are over the limit of "
            + "\(actual.frames.count * canvas - 1) pixels in all"
        #expect(diffing.diffV2(actual, past)?.0 == "Carousel animation could not be compared: \(limit); .animation(maximumPixels:) raises the limit.")
        #expect(diffing.diffV2(past, actual)?.0
            == "Carousel animation does not match its reference: the reference could not be read as an APNG (\(limit)); .animation(maximumPixels:) raises the limit.")
    }

    /// A contact sheet of no times, like a time outside the timeline, fails the test rather
    /// than passing on a blank picture.
    @Test func framesWithoutTimesFail() throws {
        let carousel = try Self.carousel()
        for (times, says) in [([MediaTime](), "given no times"), ([100], "outside the timeline")] {
            withKnownIssue {
                Snapshotting<Carousel, RGBAImage>.frames(at: times).snapshot(carousel).run { _ in }
            } matching: { issue in
                issue.comments.contains { $0.rawValue.contains(says) }
            }
        }
    }

    /// The blank reference such a snapshot records on its first run is named as such when a
    /// mended time is compared with it; a reference with pixels is not.
    @Test func blankReferenceIsNamed() throws {
        let carousel = try Self.carousel()
        let diffing = Diffing<RGBAImage>.rgbaImage()
        let actual = try carousel.frame(at: 0)
        let blank = RGBAImage(width: actual.width, height: actual.height)
        let message = try #require(diffing.diffV2(blank, actual)?.0)
        #expect(message.contains("The reference is blank (every pixel transparent black)"), "\(message)")
        let other = try #require(diffing.diffV2(try carousel.frame(at: 2.15), actual)?.0)
        #expect(!other.contains("The reference is blank"), "\(other)")
    }

    @Test func stripOfTheCarousel() throws {
        assertSnapshot(of: try Self.carousel(), as: .strip())
    }

    @Test func comparisonCountsWithinTolerance() {
        let reference = RGBAImage(width: 10, height: 10, fill: RGBA(r: 100, g: 100, b: 100))
        var actual = reference
        actual[1, 1] = RGBA(r: 103, g: 100, b: 100)   // within 3 levels
        actual[2, 2] = RGBA(r: 180, g: 100, b: 100)   // 80 levels off
        let strict = ImageComparison(reference: reference, actual: actual, tolerance: .exact)
        #expect(strict.differingPixels == 2 && !strict.matches(.exact))
        #expect(strict.largest.difference == 80 && strict.largest.x == 2 && strict.largest.y == 2)
        let loose = FrameTolerance(pixels: 0.01, channel: 3)
        let within = ImageComparison(reference: reference, actual: actual, tolerance: loose)
        #expect(within.differingPixels == 1 && within.matches(loose))
        #expect(!within.matches(FrameTolerance(pixels: 0, channel: 3)))
    }

    /// A share of pixels outside 0...1 (`pixels: 10`, meant as ten pixels) fails every
    /// comparison under it, saying why, rather than letting every pixel differ or ending the
    /// test run; the ends of the range are taken.
    @Test func toleranceOutsideAShareFailsEveryComparison() throws {
        #expect(FrameTolerance(pixels: 1, channel: 300).channel == 255 && FrameTolerance(pixels: 0).pixels == 0)
        let image = try Self.carousel().frame(at: 0)
        var set = FrameTolerance.exact
        set.pixels = 10
        for tolerance in [FrameTolerance(pixels: 10), FrameTolerance(pixels: .nan), FrameTolerance(pixels: -0.5), set] {
            let message = try #require(Diffing<RGBAImage>.rgbaImage(tolerance: tolerance).diffV2(image, image)?.0)
            #expect(message.hasPrefix("FrameTolerance: pixels is the share of pixels that may differ, 0...1 (0.001 is one in a thousand), got "))
            let comparison = ImageComparison(reference: image, actual: image, tolerance: tolerance)
            #expect(!comparison.matches(tolerance) && comparison.summary(tolerance) == message)
            let animation = AnimationSnapshot(apng: try Self.carousel().data(format: .apng))
            #expect(Diffing<AnimationSnapshot>.animation(tolerance: tolerance).diffV2(animation, animation)?.0 == message)
        }
        for tolerance in [FrameTolerance(pixels: 0), FrameTolerance(pixels: 1)] {
            #expect(Diffing<RGBAImage>.rgbaImage(tolerance: tolerance).diffV2(image, image) == nil)
        }
        var tolerance = FrameTolerance.exact
        tolerance.channel = 300
        tolerance.pixels = 0.5
        #expect(tolerance.channel == 255 && tolerance.pixels == 0.5)
    }

    /// A reference that cannot be read is not named among the failure's images, and a
    /// reference.png an earlier failure left in the same folder is removed.
    @Test func unreadableReferenceIsNotNamed() throws {
        let actual = try Self.carousel().frame(at: 0)
        let diffing = Diffing<RGBAImage>.rgbaImage()
        let first = try #require(diffing.diffV2(RGBAImage(width: 2, height: 2), actual)?.0)
        let path = try #require(first.split(separator: "\n").first { $0.hasPrefix("Actual:") })
            .dropFirst("Actual:".count).trimmingCharacters(in: .whitespaces)
        // The folder the next failure of this test writes to (`….1` now, `….2` next), as a
        // rerun finds it: with a reference.png from before.
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let next = folder.deletingLastPathComponent()
            .appendingPathComponent(folder.lastPathComponent.replacingOccurrences(of: ".1", with: ".2"))
        try FileManager.default.createDirectory(at: next, withIntermediateDirectories: true)
        try PNGCodec.encode(RGBAImage(width: 1, height: 1)).write(to: next.appendingPathComponent("reference.png"))
        let (message, attachments) = try #require(diffing.diffV2(RGBAImage(width: 0, height: 0), actual))
        #expect(!message.contains("Reference:") && message.contains("Actual:") && message.contains("Difference:"))
        let second = try #require(message.split(separator: "\n").first { $0.hasPrefix("Actual:") })
            .dropFirst("Actual:".count).trimmingCharacters(in: .whitespaces)
        let reference = URL(fileURLWithPath: second).deletingLastPathComponent().appendingPathComponent("reference.png")
        #expect(!FileManager.default.fileExists(atPath: reference.path))
        #expect(attachments.count == 2, "the actual frame and the difference")
    }

    /// Artifact folders are named as swift-snapshot-testing names the test's references.
    @Test func artifactFoldersAreNamedAsReferencesAre() {
        #expect(sanitizedName("frames()") == "frames")
        #expect(sanitizedName("paramFrames(_:)") == "paramFrames-_")
        #expect(sanitizedName("at(time:tolerance:)") == "at-time-tolerance")
        #expect(sanitizedName("A test with spaces") == "A-test-with-spaces")
        // Where no Swift Testing test runs (XCTest), the file and function that made the strategy.
        let place = ArtifactPlace(filePath: "/src/Tests/AppTests/BannerTests.swift", function: "testFirstPage()")
        #expect(place.file == "BannerTests" && place.test == "testFirstPage")
        let bare = ArtifactPlace(filePath: "", function: "()")
        #expect(bare.file == "XCTest" && bare.test == "snapshot")
        #expect(ArtifactPlace.unnamed.file == "XCTest" && ArtifactPlace.unnamed.test == "snapshot")
    }

    /// A failure's folder takes the number of the reference it was compared with: the test's
    /// second snapshot, failing after a first that passed, writes `<test>.2/`, beside its
    /// reference `<name>.2.png`. Before, the folder counted failures and was `<test>.1/`.
    @Test func failureFolderTakesItsReferencesNumber() throws {
        let folder = try Self.twoReferences()
        defer { try? FileManager.default.removeItem(at: folder) }
        func verify(_ carousel: Carousel) -> String? {
            verifySnapshot(of: carousel, as: .frame(at: 0), record: .never, snapshotDirectory: folder.path, testName: "banner")
        }
        #expect(verify(try Self.carousel()) == nil)
        let message = try #require(verify(try Self.carousel(current: RGBA(r: 255, g: 0, b: 0))))
        #expect(message.contains("/carousel-snapshots/CarouselSnapshotTests/failureFolderTakesItsReferencesNumber.2/difference.png"),
                "\(message)")
    }

    /// In a parameterized test, whose cases run in parallel in no set order, a case's failure
    /// folder is named after its reference, not counted: before, the same failing case wrote
    /// `paramFolder-_.1/`, `.3/` or `.2/` from run to run.
    @Test(arguments: [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 0, b: 255)])
    func parameterizedFailureKeepsItsFolder(_ current: RGBA) throws {
        let folder = try Self.twoReferences()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = try Data(contentsOf: folder.appendingPathComponent("banner.1.png"))
        var folders: [String] = []
        for _ in 0..<2 {
            let message = try #require(verifySnapshot(of: try Self.carousel(current: current), as: .frame(at: 0), record: .never,
                                                      snapshotDirectory: folder.path, testName: "banner"))
            let line = try #require(message.split(separator: "\n").first { $0.hasPrefix("Difference:") })
            folders.append(URL(fileURLWithPath: String(line.dropFirst("Difference:".count)).trimmingCharacters(in: .whitespaces))
                .deletingLastPathComponent().lastPathComponent)
        }
        #expect(folders == Array(repeating: "parameterizedFailureKeepsItsFolder-_.\(artifactKey(reference))", count: 2))
    }

    /// The folder key is FNV-1a's, as its published values give it.
    @Test func artifactKeyIsFNV1a() {
        #expect(artifactKey(Data()) == "cbf29ce4")
        #expect(artifactKey(Data("a".utf8)) == "af63dc4c")
        #expect(artifactKey(Data("foobar".utf8)) == "85944171")
    }

    /// A share of differing pixels that two decimals would round to 0% or 100% says so.
    @Test func sharesNearEitherEndAreNotRoundedToIt() {
        #expect(ImageComparison.percentage(100 * 2 / 57600) == "<0.01")
        #expect(ImageComparison.percentage(0) == "0.00")
        #expect(ImageComparison.percentage(0.1) == "0.10")
        #expect(ImageComparison.percentage(100 * 57599 / 57600) == ">99.99")
        #expect(ImageComparison.percentage(100) == "100.00")
    }

    /// A fresh folder holding `banner.1.png` and `banner.2.png`, each the carousel's first frame.
    static func twoReferences() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-references-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let frame = try PNGCodec.encode(try carousel().frame(at: 0))
        for n in 1...2 { try frame.write(to: folder.appendingPathComponent("banner.\(n).png")) }
        return folder
    }

    /// A failing comparison says what differs and writes reference, actual and difference images.
    @Test func failureWritesThreeImages() throws {
        let reference = try Self.carousel().frame(at: 0)
        let actual = try Self.carousel(current: RGBA(r: 255, g: 0, b: 0)).frame(at: 0)
        let diffing = Diffing<RGBAImage>.rgbaImage()
        let (message, attachments) = try #require(diffing.diffV2(reference, actual))
        #expect(message.hasPrefix("Carousel frame differs from its reference: "))
        #expect(message.contains("pixels (") && message.contains("differ by more than 0 levels"))
        #expect(attachments.count == 3)
        for label in ["Reference:", "Actual:", "Difference:"] {
            let line = try #require(message.split(separator: "\n").first { $0.hasPrefix(label) })
            let path = line.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
            let image = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(image.width == reference.width && image.height == reference.height, "\(label) \(path)")
        }
        #expect(diffing.diffV2(reference, reference) == nil)
    }

    @Test func sizeMismatchIsReadable() throws {
        let diffing = Diffing<RGBAImage>.rgbaImage()
        let (message, _) = try #require(diffing.diffV2(RGBAImage(width: 4, height: 4), RGBAImage(width: 5, height: 4)))
        #expect(message.hasPrefix("Carousel frame does not match its reference: the reference is 4x4, the frame is 5x4."))
        // The strip and any image are called what they are; before, both were "Carousel frame".
        for (strategy, says) in [(Snapshotting<Carousel, RGBAImage>.strip(), "Carousel strip does not match its reference: the reference is 4x4, the strip is 5x4."),
                                 (Snapshotting<RGBAImage, RGBAImage>.image().pullback { (c: Carousel) in c.strip },
                                  "Image does not match its reference: the reference is 4x4, the image is 5x4.")] {
            let (said, _) = try #require(strategy.diffing.diffV2(RGBAImage(width: 4, height: 4), RGBAImage(width: 5, height: 4)))
            #expect(said.hasPrefix(says), "\(said)")
        }
        var changed = RGBAImage(width: 4, height: 4)
        changed[1, 2] = RGBA(r: 9, g: 0, b: 0)
        let (differs, _) = try #require(Snapshotting<Carousel, RGBAImage>.strip().diffing.diffV2(RGBAImage(width: 4, height: 4), changed))
        #expect(differs.hasPrefix("Carousel strip differs from its reference: 1 of 16 pixels"), "\(differs)")
    }

    @Test func pngRoundTripOfTheFormat() throws {
        let frame = try Self.carousel().frame(at: 0.7)
        let diffing = Diffing<RGBAImage>.rgbaImage()
        #expect(diffing.fromData(diffing.toData(frame)) == frame)
    }
}

/// Issues counted from a known-issue matcher, which may run on any thread.
private final class IssueCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0, located: [SourceLocation] = []
    var value: Int { lock.withLock { count } }
    /// Where the issues counted with a place were recorded.
    var places: [SourceLocation] { lock.withLock { located } }
    func add(at place: SourceLocation? = nil) {
        lock.withLock {
            count += 1
            if let place { located.append(place) }
        }
    }
}
