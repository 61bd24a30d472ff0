import { Icon } from '@fanfare/ui';
import type { BannerView } from '../runtime/types.ts';

/** The newsletter confirmation banner (spec 2): a fixed full-width orange bar with a message and a close icon. */
export function Banner({ banner, closeLabel, onClose }: { banner: BannerView; closeLabel: string; onClose: () => void }) {
  return (
    <div className={`banner banner--${banner.state}`} role={banner.state === 'error' ? 'alert' : 'status'} data-testid="newsletter-banner">
      <p className="banner__text">{banner.message}</p>
      <button type="button" className="ffui-icon-button banner__close" onClick={onClose} aria-label={closeLabel}>
        <Icon name="close" />
      </button>
    </div>
  );
}
