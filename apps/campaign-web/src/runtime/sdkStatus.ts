import { PROVIDER_SDK_LOAD_ERROR_EVENT, type CampaignService, type ProviderSdkLoadErrorDetail } from '@fanfare/protocol';

/**
 * Why a provider cannot log in on this page: the server names no SDK script (`not-configured`),
 * the script failed (`load-failed`) or did not answer within the 120 s script timeout
 * (`timed-out`): both come with the loader's load-error event.
 */
export type SdkUnavailable = 'not-configured' | 'load-failed' | 'timed-out';

export interface SdkStatusView {
  unavailable: Partial<Record<CampaignService, SdkUnavailable>>;
  /** Providers whose SDK is being loaded: their login button waits, the rest of the page does not. */
  loading: Partial<Record<CampaignService, true>>;
}

/**
 * Follows the providers' SDK loads for the login buttons. `track` wraps a loader: while a load
 * is pending the provider is `loading`; the document's load-error event (the loader's, after a
 * failure or the 120 s timeout) makes it unavailable with the reason. `onChange` runs on each change.
 */
export class SdkStatus {
  private view: SdkStatusView;

  constructor(
    doc: Pick<Document, 'addEventListener'>,
    notConfigured: readonly CampaignService[],
    private readonly onChange: () => void,
  ) {
    this.view = { unavailable: Object.fromEntries(notConfigured.map((s) => [s, 'not-configured'])), loading: {} };
    doc.addEventListener(PROVIDER_SDK_LOAD_ERROR_EVENT, (e) => {
      const { service, timedOut } = (e as CustomEvent<ProviderSdkLoadErrorDetail>).detail;
      this.update(service, false, timedOut ? 'timed-out' : 'load-failed');
    });
  }

  /** The current state; a new object after each change. */
  get current(): SdkStatusView {
    return this.view;
  }

  track<T>(service: CampaignService, load: () => Promise<T>): () => Promise<T> {
    return () => {
      const pending = load();
      // A second caller shares the loader's promise: only a load still open shows as loading.
      let settled = false;
      pending.then(
        () => {
          settled = true;
          this.update(service, false, null);
        },
        () => {
          settled = true;
          this.update(service, false, this.view.unavailable[service] ?? 'load-failed');
        },
      );
      queueMicrotask(() => {
        if (!settled) this.update(service, true, this.view.unavailable[service] ?? null);
      });
      return pending;
    };
  }

  private update(service: CampaignService, loading: boolean, unavailable: SdkUnavailable | null): void {
    const was = this.view;
    if (Boolean(was.loading[service]) === loading && (was.unavailable[service] ?? null) === unavailable) return;
    const next: SdkStatusView = { unavailable: { ...was.unavailable }, loading: { ...was.loading } };
    if (loading) next.loading[service] = true;
    else delete next.loading[service];
    if (unavailable) next.unavailable[service] = unavailable;
    else delete next.unavailable[service];
    this.view = next;
    this.onChange();
  }
}
