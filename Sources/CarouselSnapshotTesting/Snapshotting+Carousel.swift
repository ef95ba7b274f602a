import Carousel
import Foundation
import SnapshotTesting
import XCTest

#if canImport(Testing)
import Testing
#endif

extension Snapshotting where Value == Carousel, Format == RGBAImage {
    /// The frame shown at `time` (a literal is seconds: `.frame(at: 2.15)`), stored as a PNG under `__Snapshots__/`.
    ///
    /// It is exactly the picture the GIF shows then (before palette reduction and, on a
    /// transparent background, the GIF's cut of alpha at 128), the
    /// same as `carousel frame --at SECONDS`. A time outside the timeline is reported
    /// as a test failure where the strategy is made.
    ///
    /// `filePath` and `function`, where the strategy is made, name the folder of a failure's
    /// images under XCTest (Swift Testing names the running test itself), and `fileID`,
    /// `filePath`, `line` and `column` place a failure found as it is made. A helper that
    /// makes the strategy for its callers passes theirs on, as it passes them to
    /// `assertSnapshot`: `.frame(at: t, fileID: fileID, filePath: file, function: testName,
    /// line: line, column: column)`.
    public static func frame(at time: MediaTime, tolerance: FrameTolerance = .exact,
                             fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             function: String = #function,
                             line: UInt = #line, column: UInt = #column) -> Snapshotting {
        frames(at: [time], tolerance: tolerance, fileID: fileID, filePath: filePath, function: function,
               line: line, column: column)
    }

    /// The frames shown at `times`, stacked top to bottom in one PNG (a contact sheet). No
    /// times, like a time outside the timeline, is reported as a test failure.
    public static func frames(at times: [MediaTime], tolerance: FrameTolerance = .exact,
                              fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                              function: String = #function,
                              line: UInt = #line, column: UInt = #column) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>.image(tolerance: tolerance, rows: times, subject: .frame, fileID: fileID,
                                                 filePath: filePath, function: function, line: line, column: column)
            .pullback { carousel in
            if times.isEmpty {
                reportFailure("frames(at:) was given no times; give at least one", fileID: fileID, filePath: filePath,
                              line: line, column: column)
            }
            var sheet = RGBAImage(width: carousel.width, height: carousel.height * max(1, times.count))
            for (row, time) in times.enumerated() {
                do {
                    sheet.paste(try carousel.frame(at: time), x: 0, y: row * carousel.height)
                } catch {
                    reportFailure("\(error)", fileID: fileID, filePath: filePath, line: line, column: column)
                }
            }
            return sheet
        }
    }

    /// The padded strip the frames are cut from (as `carousel strip` writes it).
    public static func strip(tolerance: FrameTolerance = .exact,
                             fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             function: String = #function,
                             line: UInt = #line, column: UInt = #column) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>.image(tolerance: tolerance, rows: [], subject: .strip, fileID: fileID,
                                                 filePath: filePath, function: function, line: line, column: column)
            .pullback(\.strip)
    }
}

extension Snapshotting where Value == RGBAImage, Format == RGBAImage {
    /// Any RGBA image as a PNG snapshot, compared under `tolerance`.
    ///
    /// On a mismatch the reference, the actual image and a difference image are
    /// written as PNG to `$SNAPSHOT_ARTIFACTS` (or the temporary folder) under
    /// `carousel-snapshots/`, and the failure message gives their paths. Works on Linux.
    ///
    /// A `tolerance` whose `pixels` is not a share fails the test where the strategy is made,
    /// on the run that records the reference too.
    public static func image(tolerance: FrameTolerance = .exact,
                             fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             function: String = #function,
                             line: UInt = #line, column: UInt = #column) -> Snapshotting {
        image(tolerance: tolerance, rows: [], subject: .image, fileID: fileID, filePath: filePath, function: function,
              line: line, column: column)
    }

    /// ``image(tolerance:fileID:filePath:function:line:column:)`` of a contact sheet whose rows
    /// are the frames at `rows`
    /// (``Diffing/rgbaImage(tolerance:rows:subject:checkedAtSnapshot:place:)``), or of any image
    /// where `rows` is empty, its failures saying what it is (`subject`).
    static func image(tolerance: FrameTolerance, rows: [MediaTime], subject: ImageSubject, fileID: StaticString,
                      filePath: StaticString, function: String, line: UInt, column: UInt) -> Snapshotting {
        let place = ArtifactPlace(filePath: filePath, function: function)
        let diffing = Diffing<RGBAImage>.rgbaImage(tolerance: tolerance, rows: rows, subject: subject, checkedAtSnapshot: true, place: place)
        return Snapshotting(pathExtension: "png", diffing: diffing) { image in
            ArtifactCounter.shared.took(place)
            // Said where the strategy is made, on the run that records the reference too.
            if let problem = tolerance.problem ?? referenceSizeProblem(width: image.width, height: image.height, subject: subject) {
                reportFailure(problem, fileID: fileID, filePath: filePath, line: line, column: column)
            }
            return image
        }
    }
}

extension Diffing where Value == RGBAImage {
    /// Compares RGBA images stored as PNG, within `tolerance`, writing the three images on failure.
    public static func rgbaImage(tolerance: FrameTolerance = .exact) -> Diffing {
        rgbaImage(tolerance: tolerance, rows: [], subject: .frame, checkedAtSnapshot: false, place: .unnamed)
    }

    /// ``rgbaImage(tolerance:)`` of a contact sheet whose rows, top to bottom, are the frames
    /// at `rows` (two or more): the largest difference is placed in its frame, by time and
    /// row, as well as on the sheet. With `checkedAtSnapshot`, for a strategy that has failed
    /// the test for a tolerance that is not a share, the comparison does not say so again.
    /// `place` names the folder of a failure's images under XCTest, and `subject` what the
    /// failure calls the image.
    static func rgbaImage(tolerance: FrameTolerance, rows: [MediaTime], subject: ImageSubject, checkedAtSnapshot: Bool,
                          place: ArtifactPlace) -> Diffing {
        .diff(
            toData: { image in (try? PNGCodec.encode(image)) ?? Data() },
            fromData: { data in (try? PNGCodec.decode(data, maximumPixels: referencePixels)) ?? RGBAImage(width: 0, height: 0) },
            diffV2: { reference, actual in
                if let problem = tolerance.problem { return checkedAtSnapshot ? nil : (problem, []) }
                let comparison = ImageComparison(reference: reference, actual: actual, tolerance: tolerance)
                guard !comparison.matches(tolerance) else { return nil }
                let height = rows.count > 1 && actual.height % rows.count == 0 ? actual.height / rows.count : 0
                let summary = comparison.summary(tolerance, of: subject.name, noun: subject.noun) { x, y in
                    guard height > 0 else { return "(\(x), \(y))" }
                    let row = y / height
                    return "(\(x), \(y)): (\(x), \(y - row * height)) of the frame at \(rows[row].seconds) s, row \(row + 1) of \(rows.count)"
                }
                let (paths, attachments) = artifacts(reference: reference, actual: actual, tolerance: tolerance, place: place)
                return (summary + blankReferenceHint(reference, actual) + paths, attachments)
            }
        )
    }
}

/// The most pixels a PNG reference is read back with: 2^28, 1 GiB of RGBA, as an animation's
/// (``APNGDecoder/maximumPixels``); a contact sheet of 358 frames of 1125x665. PNG decoding
/// elsewhere stops at 2^26 (``PNGCodec/maximumPixels``), which a contact sheet of 86 such
/// frames passes: it was recorded, then never read back.
let referencePixels = APNGDecoder.maximumPixels

/// Why an image of `width` x `height` cannot be a reference, or nil: past ``referencePixels``,
/// it would be recorded and then never read back.
func referenceSizeProblem(width: Int, height: Int, subject: ImageSubject) -> String? {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    guard overflow || product > referencePixels else { return nil }
    return "\(subject.name) is \(width)x\(height), past the \(referencePixels) pixels (2^28) a reference "
        + "is read back with; snapshot fewer frames at a time"
}

/// What a failure calls the image compared: a carousel's frame (or contact sheet of frames),
/// its strip, or any image.
struct ImageSubject: Sendable {
    /// How the failure's line starts.
    let name: String
    /// The new image, where the sizes differ (`the reference is 4x4, the strip is 5x4`).
    let noun: String

    static let frame = ImageSubject(name: "Carousel frame", noun: "frame")
    static let strip = ImageSubject(name: "Carousel strip", noun: "strip")
    static let image = ImageSubject(name: "Image", noun: "image")
}

/// A line for a reference with every pixel transparent black beside an actual image with
/// some other: what a snapshot of a time outside the timeline recorded, beside its failure,
/// on its first run. Once the time is mended that reference has to go; nothing else says so.
func blankReferenceHint(_ reference: RGBAImage, _ actual: RGBAImage) -> String {
    guard reference.width > 0, reference.pixels.allSatisfy({ $0 == 0 }), actual.pixels.contains(where: { $0 != 0 }) else {
        return ""
    }
    return "\nThe reference is blank (every pixel transparent black), as a snapshot of a time outside the timeline "
        + "records it on its first run: if it was made so, record it again (SNAPSHOT_TESTING_RECORD=failed) or delete it."
}

/// The reference, the actual image and their difference image of a failed comparison, each
/// encoded once as PNG, written (``writeArtifacts(_:place:)``) and made the failure's
/// attachments: the lines of the message that give their paths, and the attachments. An image
/// without pixels (a reference that could not be read) is neither written, named nor attached.
func artifacts(reference: RGBAImage, actual: RGBAImage, tolerance: FrameTolerance,
               place: ArtifactPlace) -> (paths: String, attachments: [DiffAttachment]) {
    let difference = ImageComparison.differenceImage(reference: reference, actual: actual, tolerance: tolerance)
    let files = [("reference.png", reference), ("actual.png", actual), ("difference.png", difference)].map { name, image in
        (name: name, png: image.width > 0 ? try? PNGCodec.encode(image) : nil)
    }
    var paths = ""
    if let folder = try? writeArtifacts(files, place: place) {
        for (name, png) in files where png != nil {
            let label = name.dropLast(4).capitalized + ":"
            paths += "\n" + label.padding(toLength: 12, withPad: " ", startingAt: 0) + folder.appendingPathComponent(name).path
        }
    }
    return (paths, files.compactMap { file in file.png.map { DiffAttachment.data($0, name: file.name) } })
}

/// Writes the PNGs to `carousel-snapshots/<TestFile>/<test>.<n>/` under `$SNAPSHOT_ARTIFACTS`
/// (or the temporary folder): named after the running test (Swift Testing), or after the file
/// and function that made the strategy (`place`, under XCTest), `n` the number of the test's
/// snapshot compared (``ArtifactCounter``), so a rerun overwrites the same files instead of
/// adding folders. A file an earlier run left where there is no PNG now is removed.
///
/// The cases of a parameterized Swift Testing test share the test's name and run in parallel
/// in no set order, so a count would give a case another folder on every run. There `n` is
/// ``artifactKey(_:)`` of the reference PNG (of the actual one where there is no reference):
/// the same reference, the same folder.
func writeArtifacts(_ files: [(name: String, png: Data?)], place: ArtifactPlace) throws -> URL {
    let base = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory(),
                   isDirectory: true)
    let (file, test) = currentTest(or: place)
    let number = inParameterizedCase
        ? artifactKey(files.lazy.compactMap(\.png).first ?? Data())
        : String(ArtifactCounter.shared.number(for: place))
    let folder = base.appendingPathComponent("carousel-snapshots").appendingPathComponent(file)
        .appendingPathComponent("\(test).\(number)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, png) in files {
        let url = folder.appendingPathComponent(name)
        if let png { try png.write(to: url) } else { try? FileManager.default.removeItem(at: url) }
    }
    return folder
}

/// Where a strategy was made, for the folder of a failure's images when no Swift Testing test
/// is running (XCTest tells a strategy no test name): the file, without `.swift`, and the
/// function, as swift-snapshot-testing names a reference (`testFirstPage()` is
/// `testFirstPage`). ``unnamed`` is `XCTest/snapshot`, for a diffing made without a place.
struct ArtifactPlace: Sendable {
    let file: String
    let test: String

    init(filePath: StaticString, function: String) {
        let name = ((filePath.description as NSString).lastPathComponent as NSString).deletingPathExtension
        let test = sanitizedName(function)
        self.file = name.isEmpty ? "XCTest" : name
        self.test = test.isEmpty ? "snapshot" : test
    }

    private init(file: String, test: String) {
        self.file = file
        self.test = test
    }

    static let unnamed = ArtifactPlace(file: "XCTest", test: "snapshot")
}

/// The running test's file (without `.swift`) and name, as swift-snapshot-testing names its
/// files: each run of characters other than letters, digits and `_` made one `-`, none at
/// either end (`frames()` is `frames`, `frames(_:)` is `frames-_`); with no Swift Testing test
/// running, `place`.
private func currentTest(or place: ArtifactPlace) -> (file: String, test: String) {
    #if canImport(Testing)
    if let test = Test.current {
        let file = (test.sourceLocation.fileName as NSString).deletingPathExtension
        return (file, sanitizedName(test.name))
    }
    #endif
    return (place.file, place.test)
}

/// Whether the running Swift Testing test case is one of a parameterized test's.
private var inParameterizedCase: Bool {
    #if canImport(Testing)
    return Test.Case.current?.isParameterized == true
    #else
    return false
    #endif
}

/// Eight hexadecimal digits of the 64-bit FNV-1a hash of `data`: the same on every run and
/// platform, where Swift's `Hasher` is seeded anew in each process.
func artifactKey(_ data: Data) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in data {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    let hex = String(hash >> 32, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
}

/// `name` as swift-snapshot-testing's `sanitizePathComponent` makes it.
func sanitizedName(_ name: String) -> String {
    name.replacingOccurrences(of: "\\W+", with: "-", options: .regularExpression)
        .replacingOccurrences(of: "^-|-$", with: "", options: .regularExpression)
}

/// Numbers each test's artifact folders. The strategies count the test's snapshots, one for
/// each `assertSnapshot` (``took(_:)``), as swift-snapshot-testing numbers the references of
/// a test's unnamed snapshots, so a failure's folder takes its reference's number
/// (`testFirstPage.2/` beside `testFirstPage.2.png`). A diffing used without its strategy
/// sees no snapshots taken, and counts its failures instead.
///
/// Under XCTest the counts start again when each test case finishes, as swift-snapshot-testing's
/// do (its `CleanCounterBetweenTestCases`), so a test run again in one process (`xcodebuild
/// -test-iterations`, a retry of a failure) numbers its folders from 1 again, as it does its
/// references. Swift Testing's counts are kept for the process, as swift-snapshot-testing keeps
/// them outside its `.snapshots` trait.
///
/// `@unchecked Sendable` is safe: the counts are only touched while holding `lock`.
final class ArtifactCounter: @unchecked Sendable {
    static let shared = ArtifactCounter()
    private let lock = NSLock()
    private var snapshots: [String: Int] = [:], failures: [String: Int] = [:]
    /// The keys counted outside Swift Testing, which ``reset()`` forgets.
    private var underXCTest: Set<String> = []
    private var observing = false
    /// Whether the observer that calls ``reset()`` has been added.
    var isObservingTestCases: Bool {
        lock.lock()
        defer { lock.unlock() }
        return observing
    }

    /// The running test (or `place`) has taken one more snapshot.
    func took(_ place: ArtifactPlace) {
        let (key, xctest) = Self.counting(place)
        lock.lock()
        defer { lock.unlock() }
        snapshots[key, default: 0] += 1
        if xctest { underXCTest.insert(key) }
    }

    /// The key of `place`'s counts and whether they are counted under XCTest, where the
    /// observer that resets them is added first.
    private static func counting(_ place: ArtifactPlace) -> (key: String, xctest: Bool) {
        let xctest = !inSwiftTesting
        if xctest { shared.observeTestCases() }
        return (key(place), xctest)
    }

    /// Forgets the counts made outside Swift Testing: an XCTest test case has finished.
    func reset() {
        lock.lock()
        defer { lock.unlock() }
        for key in underXCTest {
            snapshots[key] = nil
            failures[key] = nil
        }
        underXCTest = []
    }

    /// Whether a Swift Testing test is running.
    private static var inSwiftTesting: Bool {
        #if canImport(Testing)
        return Test.current != nil
        #else
        return false
        #endif
    }

    /// Adds the observer that calls ``reset()`` after each XCTest test case, once. XCTest runs
    /// its tests on the main thread, where observers are added; elsewhere none is added.
    private func observeTestCases() {
        guard Thread.isMainThread else { return }
        lock.lock()
        let first = !observing
        observing = true
        lock.unlock()
        guard first else { return }
        MainActor.assumeIsolated {
            XCTestObservationCenter.shared.addTestObserver(TestCaseEnd())
        }
    }

    /// The number of the folder for a failed comparison in the running test (or `place`).
    func number(for place: ArtifactPlace) -> Int {
        let (key, xctest) = Self.counting(place)
        lock.lock()
        defer { lock.unlock() }
        if let taken = snapshots[key] { return taken }
        failures[key, default: 0] += 1
        if xctest { underXCTest.insert(key) }
        return failures[key, default: 1]
    }

    private static func key(_ place: ArtifactPlace) -> String {
        let (file, test) = currentTest(or: place)
        return file + "/" + test
    }
}

/// Resets ``ArtifactCounter`` when an XCTest test case finishes.
final class TestCaseEnd: NSObject, XCTestObservation, @unchecked Sendable {
    func testCaseDidFinish(_ testCase: XCTestCase) {
        ArtifactCounter.shared.reset()
    }
}

/// Fails the running test (Swift Testing or XCTest) at the given place.
func reportFailure(_ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: message),
                     sourceLocation: SourceLocation(fileID: fileID.description, filePath: filePath.description,
                                                    line: Int(line), column: Int(column)))
        return
    }
    #endif
    XCTFail(message, file: filePath, line: line)
}
