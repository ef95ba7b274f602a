import Carousel
@testable import CarouselSnapshotTesting
import Foundation
import SnapshotTesting
import XCTest

/// The strategies under XCTest, as most apps' snapshot suites still run them: a frame and
/// frames match their references, and a changed frame fails with the pixels counted and the
/// three images written, in a folder named after the test file and the test that made the
/// strategy (checked through `verifySnapshot`, which returns the failure).
final class CarouselXCTests: XCTestCase {
    func testFrameAtStart() throws {
        assertSnapshot(of: try CarouselSnapshotTests.carousel(), as: .frame(at: 0))
    }

    func testFramesThroughAMove() throws {
        assertSnapshot(of: try CarouselSnapshotTests.carousel(), as: .frames(at: [0.4, 0.8]))
    }

    func testAChangedFrameFails() throws {
        let recoloured = try CarouselSnapshotTests.carousel(current: RGBA(r: 255, g: 0, b: 0))
        let failure = verifySnapshot(of: recoloured, as: .frame(at: 0), record: .never, testName: "testFrameAtStart")
        let message = try XCTUnwrap(failure)
        XCTAssertTrue(message.contains("Carousel frame differs from its reference: "), message)
        XCTAssertTrue(message.contains("Difference: ") && message.contains("carousel-snapshots/"), message)
        let path = try XCTUnwrap(message.split(separator: "\n").first { $0.hasPrefix("Difference: ") })
            .dropFirst("Difference: ".count).trimmingCharacters(in: .whitespaces)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
        XCTAssertTrue(path.contains("/carousel-snapshots/CarouselXCTests/testAChangedFrameFails."), path)
    }

    /// Through a helper that passes its caller's name on, as swift-snapshot-testing's helpers
    /// pass `testName`, the folder is named after the caller.
    func testAChangedFrameFailsThroughAHelper() throws {
        let recoloured = try CarouselSnapshotTests.carousel(current: RGBA(r: 255, g: 0, b: 0))
        let message = try XCTUnwrap(Self.failure(of: recoloured))
        XCTAssertTrue(message.contains("/carousel-snapshots/CarouselXCTests/testAChangedFrameFailsThroughAHelper."), message)
    }

    /// A failure's folder takes the number of the reference it was compared with: the second
    /// snapshot, failing after a first that passed, writes `testAFailureFolderTakesItsReferencesNumber.2/`.
    func testAFailureFolderTakesItsReferencesNumber() throws {
        let folder = try CarouselSnapshotTests.twoReferences()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strategy = Snapshotting<Carousel, RGBAImage>.frame(at: 0)
        func verify(_ carousel: Carousel) -> String? {
            verifySnapshot(of: carousel, as: strategy, record: .never, snapshotDirectory: folder.path, testName: "banner")
        }
        XCTAssertNil(verify(try CarouselSnapshotTests.carousel()))
        let message = try XCTUnwrap(verify(try CarouselSnapshotTests.carousel(current: RGBA(r: 255, g: 0, b: 0))))
        XCTAssertTrue(message.contains("/carousel-snapshots/CarouselXCTests/testAFailureFolderTakesItsReferencesNumber.2/"), message)
    }

    /// The folders' count starts again when a test case finishes, as swift-snapshot-testing's
    /// count of references does, so a test run again in one process (`-test-iterations`, a
    /// retry) writes `<test>.1/` again beside `<test>.1.png`. The first snapshot taken under
    /// XCTest adds the observer that does it.
    func testTheCountStartsAgainAfterATestCase() {
        let place = ArtifactPlace(filePath: #filePath, function: "countStartsAgain")
        ArtifactCounter.shared.took(place)
        ArtifactCounter.shared.took(place)
        XCTAssertTrue(ArtifactCounter.shared.isObservingTestCases)
        XCTAssertEqual(ArtifactCounter.shared.number(for: place), 2)
        TestCaseEnd().testCaseDidFinish(self)
        ArtifactCounter.shared.took(place)
        XCTAssertEqual(ArtifactCounter.shared.number(for: place), 1)
    }

    /// A helper as a suite might write one: the strategy made for its caller.
    static func failure(of carousel: Carousel, file: StaticString = #filePath, testName: String = #function) -> String? {
        verifySnapshot(of: carousel, as: .frame(at: 0, filePath: file, function: testName), record: .never,
                       file: file, testName: "testFrameAtStart")
    }
}
