package io.tablescan.backup;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** An export in a local folder. A file is written to a temporary name and moved into place, whole or not at all. */
public final class FolderStore implements BackupStore {
    private final Path folder;

    public FolderStore(Path folder) {
        this.folder = folder.toAbsolutePath().normalize();
    }

    @Override
    public void prepare() {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.FAILED, "cannot create the folder " + folder + ": " + e);
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
            throw new BackupException(BackupException.Kind.FAILED, "cannot write " + target + " ("
                    + e.getClass().getSimpleName() + "): " + e.getMessage());
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
            throw new BackupException(BackupException.Kind.FAILED, "cannot read " + file + ": " + e.getMessage());
        }
    }

    @Override
    public String describe() {
        return folder.toString();
    }
}
