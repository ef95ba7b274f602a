import CarouselSnapshotTesting
import DemoBanner
import SnapshotTesting
import Testing

struct DemoBannerTests {
    @Test func firstPage() throws {
        assertSnapshot(of: try DemoBanner.carousel(), as: .frame(at: 0))
    }

    @Test func midMove() throws {
        // Hold 2 s, then a 0.3 s move: at 2.15 s the frame of 2.12 s is shown (25 fps), a
        // third of the way to the second page.
        assertSnapshot(of: try DemoBanner.carousel(), as: .frame(at: 2.15))
    }
}
