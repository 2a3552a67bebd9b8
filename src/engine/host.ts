/**
 * What the engine needs from the app around it, and nothing more: the API, the shell's way of
 * reporting errors and telling the user, and the frame a page-kind screen sits in. The engine never
 * imports the app shell, the API client or global stores; the app registers one host at start-up
 * (src/app/engine-host.tsx), and tests may register their own.
 */
import type { ComponentType, ReactNode } from 'react';

type NoticeType = 'info' | 'success' | 'warning' | 'error';

export interface PageFrameProps {
  /** The document title. */
  title: string;
  breadcrumb: readonly string[];
  /** The screen's route: the frame picks the layout of its area (e.g. the settings sidebar). */
  route: string;
  children: ReactNode;
}

export interface EngineHost {
  /** Sends an API request; a later request or cancel() with the same key aborts it. */
  send(path: string, options: { method?: string; body?: unknown; requestKey: string }): Promise<unknown>;
  cancel(requestKey: string): void;
  /** Reports a failed request the shell's way (message, field errors, signing out on 401). */
  handleError(err: unknown): void;
  notify(type: NoticeType, message: string, durationMs?: number): void;
  PageFrame: ComponentType<PageFrameProps>;
}

let host: EngineHost | null = null;

export function provideEngineHost(next: EngineHost): void {
  host = next;
}

export function engineHost(): EngineHost {
  if (!host) throw new Error('The schema engine has no host: call provideEngineHost() at start-up.');
  return host;
}
