/**
 * Why an action that needs the studio host (and its engine) cannot run now — disconnected, or this
 * browser signed out — or null when it can: the one reading the buttons that call the host use to
 * turn off and say why (title, and aria-describedby on the shell's connection notice).
 */
import { useStudioStore } from '../store/store';
import { CONNECTION_NOTICE_ID, hostBlockedReason } from '../ipc/connection';

export function useHostBlocked(): string | null {
  return useStudioStore((s) => hostBlockedReason(s.connection));
}

/** The props a host-bound button takes while the host is away (spread them last; `disabled` is or-ed in by the caller). */
export function hostBlockedProps(reason: string | null): { title?: string; 'aria-describedby'?: string } {
  return reason ? { title: reason, 'aria-describedby': CONNECTION_NOTICE_ID } : {};
}
