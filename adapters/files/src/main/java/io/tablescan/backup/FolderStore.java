package io.tablescan.backup;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/** An export in a local folder. A file is written to a temporary name and moved into place, whole or not at all. */
public final class FolderStore implements BackupStore {
    private final Path folder;

    public FolderStore(Path folder) {
        this.folder = folder.toAbsolutePath().normalize();
    }

    @Override
    public void prepare() {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, folder + " is a file, not a folder");
        }
        try {
            Files.createDirectories(folder);
        } catch (FileAlreadyExistsException e) { // a file on the way: /a/b when /a is a file
            throw new BackupException(BackupException.Kind.BAD_INPUT, "cannot create the folder " + folder + ": "
                    + e.getFile() + " is a file");
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot create the folder " + folder + " ("
                    + reason(e) + ")");
        }
    }

    @Override
    public boolean exists(String name) {
        return Files.exists(folder.resolve(name));
    }

    @Override
    public void write(String name, byte[] data) {
        Path target = folder.resolve(name);
        try {
            Path temporary = Files.createTempFile(folder, "." + name + "-", ".tmp");
            Files.write(temporary, data);
            try {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot write " + target + " (" + reason(e) + ")");
        }
    }

    /** A temporary file, moved into place when closed. */
    @Override
    public java.io.OutputStream open(String name) {
        Path target = folder.resolve(name);
        try {
            Path temporary = Files.createTempFile(folder, "." + name + "-", ".tmp");
            class Stream extends java.io.BufferedOutputStream implements Discardable {
                private boolean closed;

                Stream() throws IOException {
                    super(Files.newOutputStream(temporary), 1 << 16);
                }

                @Override
                public void discard() {
                    if (closed) {
                        return;
                    }
                    closed = true;
                    try {
                        out.close();
                        Files.deleteIfExists(temporary);
                    } catch (IOException e) {
                        // a temporary file left: no reader lists it
                    }
                }

                @Override
                public void close() throws IOException {
                    if (closed) {
                        return;
                    }
                    closed = true;
                    super.close();
                    try {
                        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    } catch (AtomicMoveNotSupportedException e) {
                        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return new Stream();
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot write " + target + " (" + reason(e) + ")");
        }
    }

    /**
     * A hard link from a complete temporary file: link(2) fails when the name exists, so of two exports only one
     * creates it, and a reader never sees it half written. Where hard links are not supported, an exclusive create.
     */
    @Override
    public boolean create(String name, byte[] data) {
        Path target = folder.resolve(name);
        Path temporary = null;
        try {
            temporary = Files.createTempFile(folder, "." + name + "-", ".tmp");
            Files.write(temporary, data);
            try {
                Files.createLink(target, temporary);
            } catch (UnsupportedOperationException | FileSystemException e) {
                if (e instanceof FileAlreadyExistsException) {
                    return false;
                }
                try (var out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    out.write(data);
                }
            }
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot create " + target + " (" + reason(e) + ")");
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    // a leftover hidden temporary file: harmless, readers go by the manifest
                }
            }
        }
    }

    @Override
    public void delete(String name) {
        Path file = folder.resolve(name);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot delete " + file + " (" + reason(e) + ")");
        }
    }

    /**
     * Moves the file to a hidden name of this call's own (a rename is atomic), then reads what it moved: what it
     * deletes is what it compared. A folder has no compare-and-delete; a file not ours is put back without replacing
     * one another writer created in that instant (then the one moved stays under its hidden name, with a warning).
     */
    @Override
    public boolean deleteIfSame(String name, byte[] data) {
        Path file = folder.resolve(name);
        try {
            Path moved = Files.createTempFile(folder, "." + name + "-", ".del");
            try {
                Files.move(file, moved, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (NoSuchFileException e) {
                Files.deleteIfExists(moved);
                return false;
            }
            if (Arrays.equals(Files.readAllBytes(moved), data)) {
                Files.delete(moved);
                return true;
            }
            try {
                try {
                    Files.createLink(file, moved);
                    Files.delete(moved);
                } catch (UnsupportedOperationException | FileSystemException e) {
                    if (e instanceof FileAlreadyExistsException) {
                        throw (FileAlreadyExistsException) e;
                    }
                    Files.move(moved, file); // no hard links: a move that does not replace
                }
            } catch (FileAlreadyExistsException e) {
                System.err.println("tablescan: warning: " + file + " was created again while another file of that "
                        + "name was being put back; that one is now " + moved);
            }
            return false;
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot delete " + file + " (" + reason(e) + ")");
        }
    }

    @Override
    public byte[] read(String name) {
        Path file = folder.resolve(name);
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new BackupException(BackupException.Kind.NOT_FOUND, file + " is missing");
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot read " + file + " (" + reason(e) + ")");
        }
    }

    @Override
    public String describe() {
        return folder.toString();
    }

    @Override
    public String describe(String name) {
        return folder.resolve(name).toString();
    }

    @Override
    public BackupStore at(String name) {
        return new FolderStore(folder.resolve(name));
    }

    @Override
    public BackupStore parent() {
        return folder.getParent() == null ? null : new FolderStore(folder.getParent());
    }

    @Override
    public String leaf() {
        return folder.getFileName() == null ? null : folder.getFileName().toString();
    }

    /** Hidden temporary files (a name starting with a dot) are not listed. */
    @Override
    public java.util.List<String> list() {
        if (!Files.isDirectory(folder)) {
            return java.util.List.of();
        }
        try (var entries = Files.list(folder)) {
            return entries.filter(path -> !path.getFileName().toString().startsWith("."))
                    .map(path -> path.getFileName() + (Files.isDirectory(path) ? "/" : "")).sorted().toList();
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot list " + folder + " (" + reason(e) + ")");
        }
    }

    /** Why a file operation failed, in words rather than an exception's class name. */
    private static String reason(IOException e) {
        return switch (e) {
            case java.nio.file.AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or folder: " + n.getFile();
            case java.nio.file.NotDirectoryException n -> n.getFile() + " is not a folder";
            case FileSystemException f -> f.getReason() != null ? f.getReason() : "file system error";
            default -> e.getMessage() != null ? e.getMessage() : "I/O error";
        };
    }
}
