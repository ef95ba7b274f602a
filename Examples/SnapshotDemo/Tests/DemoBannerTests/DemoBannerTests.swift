import CarouselSnapshotTesting
import DemoBanner
import SnapshotTesting
import Testing

struct DemoBannerTests {
    @Test func firstPage() throws {
        assertSnapshot(of: try DemoBanner.carousel(), as: .frame(at: 0))
    }

    @Test func midMove() throws {
        // Hold 2 s, then a 0.3 s move: 2.15 s is halfway to the second page.
        assertSnapshot(of: try DemoBanner.carousel(), as: .frame(at: 2.15))
    }
}
