export default function ImportPanel(_: { open: boolean; onClose: () => void; collection: unknown; onImported: () => void }) {
  return null;
}
