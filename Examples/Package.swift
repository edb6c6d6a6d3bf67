// swift-tools-version: 6.1
// Three small apps built on the toolkit, as an outside package would build them: the
// toolkit is a dependency by path, and only its library products are used.
import PackageDescription

let package = Package(
    name: "Examples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "destinations", path: "..")],
    targets: [
        .executableTarget(name: "hello-list", dependencies: [
            .product(name: "CellCanvas", package: "destinations"),
            .product(name: "CollectionKit", package: "destinations"),
            .product(name: "DiffableData", package: "destinations"),
            .product(name: "RenderLoop", package: "destinations"),
            .product(name: "TerminalFront", package: "destinations"),
        ], path: "HelloList", exclude: ["README.md", "screenshot.png"]),
        .executableTarget(name: "process-list", dependencies: [
            .product(name: "CellCanvas", package: "destinations"),
            .product(name: "CollectionKit", package: "destinations"),
            .product(name: "DiffableData", package: "destinations"),
            .product(name: "RenderLoop", package: "destinations"),
            .product(name: "TerminalFront", package: "destinations"),
        ], path: "ProcessList", exclude: ["README.md", "screenshot.png"]),
        .executableTarget(name: "file-browser", dependencies: [
            .product(name: "CellCanvas", package: "destinations"),
            .product(name: "CollectionKit", package: "destinations"),
            .product(name: "DiffableData", package: "destinations"),
            .product(name: "ImagePipeline", package: "destinations"),
            .product(name: "RenderLoop", package: "destinations"),
            .product(name: "TerminalFront", package: "destinations"),
        ], path: "FileBrowser", exclude: ["README.md", "screenshot.png"]),
    ],
    swiftLanguageModes: [.v6]
)
