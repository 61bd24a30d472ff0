import type { CampaignService } from '@fanfare/protocol';
import { Icon, type IconName } from './icons.tsx';

/** Names of the services as shown to fans. */
export const SERVICE_NAMES: Record<string, string> = { spotify: 'Spotify', apple: 'Apple Music', umg_hls: 'Preview', video: 'Video' };

/** The icon of a service; the label's own stream and unknown services show play, the video service video. */
export function serviceIcon(service: string): IconName {
  if (service === 'spotify' || service === 'apple') return service;
  if (service === 'video') return 'video';
  return 'play';
}

/** A row of circular icons, one per enabled service (spec 2). Read by screen readers as a list. */
export function ServiceIconRow({ services, label = 'Available on' }: { services: readonly string[]; label?: string }) {
  if (services.length === 0) return null;
  return (
    <ul className="ffui-service-row" aria-label={label}>
      {services.map((s) => (
        <li key={s} className={`ffui-service-row__item ffui-service--${s}`}>
          <Icon name={serviceIcon(s)} size={20} label={SERVICE_NAMES[s] ?? s} />
        </li>
      ))}
    </ul>
  );
}

/** A badge naming one of the two streaming providers (spec 2), e.g. beside the logged-in account. */
export function ProviderBadge({ service, prefix }: { service: CampaignService; prefix?: string }) {
  return (
    <span className={`ffui-badge ffui-service--${service}`}>
      <Icon name={service} size={16} />
      <span>{prefix ? `${prefix} ${SERVICE_NAMES[service]}` : SERVICE_NAMES[service]}</span>
    </span>
  );
}
