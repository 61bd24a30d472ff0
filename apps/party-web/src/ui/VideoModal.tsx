import { useTranslation } from 'react-i18next';
import { ThemedModal } from './ThemedModal.tsx';

/** The video modal (spec 2): plays a video from the chat full size. */
export function VideoModal(props: { url: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ThemedModal title={t('video.title')} onClose={props.onClose} wide>
      <video className="video-modal__video" src={props.url} controls autoPlay playsInline />
    </ThemedModal>
  );
}
