extension Carousel {
    /// This package's version, as `carousel --version` prints it and release archives are named.
    public static let version = "0.2.0"
}
