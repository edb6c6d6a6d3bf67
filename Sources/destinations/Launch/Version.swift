/// The release this build is (CHANGELOG.md says what each one brought).
enum Version {
    static let current = "0.18.0"
}
