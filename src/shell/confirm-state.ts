// The confirm popup's state, apart from the popup itself so the app root can
// watch it without loading the overlay code until a confirmation is first asked for.
import { proxy, ref } from 'valtio';

export type Confirmation = {
  text: string;
  onYes: () => void | Promise<void>;
  onNo?: () => void;
};

export const confirmState = proxy<{ current: Confirmation | null; loading: boolean }>({
  current: null,
  loading: false,
});

export function confirm(text: string, onYes: () => void | Promise<void>, onNo?: () => void): void {
  confirmState.loading = false;
  confirmState.current = ref({ text, onYes, onNo });
}

export function resetConfirmation(): void {
  confirmState.current = null;
  confirmState.loading = false;
}
