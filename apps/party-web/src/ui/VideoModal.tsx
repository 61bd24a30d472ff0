import { useTranslation } from 'react-i18next';
import { LazyModal } from './LazyModal.tsx';

/** The video modal (spec 2): plays a video from the chat full size. */
export function VideoModal(props: { url: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <LazyModal title={t('video.title')} onClose={props.onClose} wide>
      <video className="video-modal__video" src={props.url} controls autoPlay playsInline />
    </LazyModal>
  );
}
